import { connect } from 'node:net';
import t from 'tap';
import { demoServer, HOSTS } from './helpers.ts';

/**
 * Error pages name one status in the status line, the `<title>` and the heading. A path that decodes
 * but cannot be a page is a 404 with the not-found message, escaped; 400 is for input that cannot be
 * decoded. Sent over a raw socket, so the request target arrives exactly as written.
 */

const app = await demoServer({ data: { demoChangeMs: 0 } });
t.teardown(() => app.close());
const address = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));

function rawGet(target: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(address.port), address.hostname);
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      data += chunk;
    });
    socket.on('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0);
      resolve({ status, body: data.slice(data.indexOf('\r\n\r\n') + 4) });
    });
    socket.on('error', reject);
    socket.write(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
  });
}

const ROWS: [string, string, string, number, RegExp][] = [
  // name, host, request target, status, heading (in the storefront's language)
  ['broken percent-encoding', HOSTS.uk, '/cs/%zz-1', 400, /^Bad Request$/],
  ['not UTF-8', HOSTS.uk, '/cs/%C3%28-1', 400, /^Bad Request$/],
  ['raw script tag', HOSTS.uk, '/<script>alert(1)</script>', 404, /^Page Not Found$/],
  ['encoded script tag', HOSTS.uk, '/%3Cscript%3Ealert(1)%3C/script%3E', 404, /^Page Not Found$/],
  ['encoded script tag in a content path', HOSTS.uk, '/cs/%3Cscript%3E-1', 404, /^Page Not Found$/],
  ['encoded slash', HOSTS.uk, '/cs/a%2Fb-1', 404, /^Page Not Found$/],
  ['dot segments', HOSTS.uk, '/cs/%2e%2e/x-1', 404, /^Page Not Found$/],
  ['double slash', HOSTS.uk, '//evil.example/', 404, /^Page Not Found$/],
  ['overlong path', HOSTS.uk, `/cs/${'a'.repeat(3000)}-1`, 414, /^URI Too Long$/],
  ['a 400 in German', HOSTS.de, '/cs/%zz-1', 400, /^Ungültige Anfrage$/],
  ['a missing page', HOSTS.uk, '/cs/nothing-999999', 404, /^Page Not Found$/],
];

t.test('status line, title and heading name the same status', async (t) => {
  for (const [name, host, target, status, heading] of ROWS) {
    const { status: got, body } = await rawGet(target, host);
    t.equal(got, status, `${name}: status line`);
    const title = /<title>([^<]*)<\/title>/.exec(body)?.[1] ?? '';
    t.match(title, new RegExp(`^${status} `), `${name}: title names ${status} (${title.slice(0, 60)})`);
    t.notMatch(
      title,
      status < 500 ? /Internal Server Error/ : /Page Not Found/,
      `${name}: title is not another status`,
    );
    t.match(/<h1>([^<]*)<\/h1>/.exec(body)?.[1] ?? '', heading, `${name}: heading`);
    t.match(/<p class="error-status">(\d+)<\/p>/.exec(body)?.[1], String(status), `${name}: status on the page`);
    t.notMatch(body, /<script>alert/, `${name}: nothing of the request comes back as markup`);
  }
});

t.test('the not-found message of an impossible path is the escaped request path', async (t) => {
  const { body } = await rawGet('/<script>alert(1)</script>', HOSTS.uk);
  t.match(body, 'Page not found: /&lt;script&gt;alert(1)&lt;/script&gt;');
});
