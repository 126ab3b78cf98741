import { once } from 'node:events';
import { createServer, request } from 'node:http';
import { connect } from 'node:net';
import t from 'tap';
import { DESKTOP, layoutShifts, nextFrames, openPage, recordLayoutShifts } from './browser.ts';
import { startSuite } from './server.ts';

/**
 * A page streams, and a browser paints what it has whenever the stream pauses: on a slow network,
 * or when the server's own writes are spread over a busy event loop. Whatever point the stream
 * pauses at on its way through the first screen, nothing painted may move when the rest arrives
 * (CLS 0, decision 0212). A pausing proxy in front of the usual server holds the product page back
 * at each tag in turn, from `<body>` to the end of the hero, while everything else (assets, the live
 * price's socket) passes through.
 */
const PAGE = '/de/cs/kueche/aquasense-60-geschirrspueler-4711'; // the switcher, the header, crumbs, the hero

const { server, browser } = await startSuite(t);

// Asked without Accept-Encoding: the proxy cuts the HTML itself, not a compressed stream of it.
const { body: document } = await server.get('ch', PAGE);
// Inside the body: with only the head, Chromium has nothing to render and draws no frame.
const from = document.indexOf('>', document.indexOf('<body')) + 1;
const to = document.indexOf('</section>', from);
/** Before every start tag in the body up to the hero's end. */
const pausePoints = [...document.slice(from, to).matchAll(/<[a-z]/g)].map((match) => from + match.index);

let pauseAt = 0;
/** Sends the rest of the page held back. */
let resume = () => {};
const proxy = createServer((incoming, reply) => {
  if (incoming.url === PAGE) {
    reply.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    reply.write(document.slice(0, pauseAt));
    const rest = document.slice(pauseAt);
    resume = () => reply.end(rest);
    return;
  }
  const upstream = request(
    { port: server.port, host: '127.0.0.1', path: incoming.url, method: incoming.method, headers: incoming.headers },
    (response) => {
      reply.writeHead(response.statusCode ?? 502, response.headers);
      response.pipe(reply);
    },
  );
  upstream.on('error', () => reply.destroy());
  incoming.pipe(upstream);
});
// The live price's socket, byte for byte.
proxy.on('upgrade', (incoming, socket, head) => {
  const upstream = connect(server.port, '127.0.0.1', () => {
    const lines = [`${incoming.method} ${incoming.url} HTTP/1.1`];
    for (let i = 0; i < incoming.rawHeaders.length; i += 2)
      lines.push(`${incoming.rawHeaders[i]}: ${incoming.rawHeaders[i + 1]}`);
    upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
    upstream.write(head);
    socket.pipe(upstream).pipe(socket);
  });
  upstream.on('error', () => socket.destroy());
  socket.on('error', () => upstream.destroy());
});
proxy.listen(0, '127.0.0.1');
await once(proxy, 'listening');
t.teardown(() => proxy.close());
const proxyPort = (proxy.address() as { port: number }).port;

for (const [label, viewport] of [
  ['390 px', { width: 390, height: 844 }],
  ['desktop', DESKTOP],
] as const) {
  t.test(
    `wherever the stream pauses before the hero's end, nothing on the first screen moves (${label})`,
    async (t) => {
      const { page, close } = await openPage(browser, { viewport });
      t.teardown(close);
      await recordLayoutShifts(page);
      const moved: string[] = [];
      let paintedWhilePaused = 0;
      for (const at of pausePoints) {
        pauseAt = at;
        await page.goto(`http://ch.localhost:${proxyPort}${PAGE}`, { waitUntil: 'commit' });
        // Two frames of the half page (none is drawn before the stylesheet is in), then the rest.
        await nextFrames(page);
        resume();
        await page.waitForLoadState('load');
        await nextFrames(page);
        const shifts = await layoutShifts(page);
        const painted = await page.evaluate(() => {
          const paint = performance.getEntriesByName('first-contentful-paint')[0];
          const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
          return paint !== undefined && paint.startTime < navigation.responseEnd;
        });
        if (painted) paintedWhilePaused++;
        if (shifts.length > 0) moved.push(`paused before ${document.slice(at, at + 40)}…: ${shifts.join(', ')}`);
      }
      t.same(moved, [], `no shift at any of ${pausePoints.length} pauses`);
      // The premise: the browser did paint half a page (before the first text, nothing is contentful).
      // Had it not, the case above could not fail.
      t.ok(
        paintedWhilePaused >= pausePoints.length / 2,
        `the first paint came while the stream paused (${paintedWhilePaused} of ${pausePoints.length})`,
      );
    },
  );
}
