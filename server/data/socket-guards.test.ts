import { connect, type Socket } from 'node:net';
import fastifyUnderPressure from '@fastify/under-pressure';
import t, { type Test } from 'tap';
import WebSocket from 'ws';
import { demoServer } from '../../test/helpers.ts';
import { until } from '../../test/until.ts';
import { loadSitesConfig } from '../config/sites.ts';
import { createHostResolver } from '../sites/resolve.ts';
import { MAX_FIELDS } from './document-limits.ts';
import { SOCKET_CLOSE } from './socket.ts';
import { type DataServer, startDataServer } from './test-server.ts';

/** What the socket refuses or ends on its own, over a real port: upgrades, idle, in-flight, slow readers. */

const protocol = 'graphql-transport-ws';
const EDITOR = 'https://app.contentstack.com';

/** The status an upgrade is answered with: 101 when the socket opens, else the refusal's. */
function upgradeStatus(t: Test, url: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(url, protocol, { headers });
  t.teardown(() => socket.readyState === WebSocket.OPEN && socket.terminate());
  return new Promise<{ status: number; retryAfter?: string; body: string }>((resolve) => {
    socket.once('open', () => resolve({ status: 101, body: '' }));
    // With this listener, ws leaves the refused request to us: read its body, then drop it.
    socket.once('unexpected-response', (request, response) => {
      response.once('end', () => request.destroy());
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk;
      });
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, retryAfter: response.headers['retry-after'], body }),
      );
    });
  });
}

/** A socket past connection_init, with every message it receives collected. */
async function connected(t: Test, server: DataServer) {
  const socket = new WebSocket(server.wsUrl, protocol);
  t.teardown(() => socket.terminate());
  // biome-ignore lint/suspicious/noExplicitAny: protocol messages are read by path
  const messages: any[] = [];
  socket.on('message', (data) => messages.push(JSON.parse(String(data))));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  await new Promise((resolve) => socket.once('open', resolve));
  socket.send(JSON.stringify({ type: 'connection_init' }));
  await until(() => messages.some((m) => m.type === 'connection_ack'), { what: 'the ack' });
  return { socket, messages, closed };
}

t.test('upgrades: Host must be a storefront, Origin the page itself, a storefront or the editor', async (t) => {
  const sites = loadSitesConfig('config/sites.json').config;
  const server = await startDataServer(t, {
    upgrade: { resolveHost: createHostResolver(sites).resolve, editorOrigins: [EDITOR] },
  });
  const at = (headers: Record<string, string>) => upgradeStatus(t, server.wsUrl, headers);
  const refusedHost = await at({ host: 'evil.example' });
  t.equal(refusedHost.status, 403, 'an unknown Host');
  t.match(refusedHost.body, /Host of this socket is not a storefront/);
  t.equal((await at({ host: 'www.halden.ch' })).status, 101, 'a storefront host, no Origin (not a browser)');
  t.equal((await at({ host: '127.0.0.1' })).status, 101, 'loopback maps to the forced host');
  for (const origin of ['https://www.halden.ch', 'https://www.halden.de', EDITOR]) {
    t.equal((await at({ host: 'www.halden.ch', origin })).status, 101, origin);
  }
  for (const origin of ['https://evil.example', 'null', 'http://localhost.evil.example', 'file:///x.html']) {
    const refused = await at({ host: 'www.halden.ch', origin });
    t.equal(refused.status, 403, `Origin ${origin}`);
    t.match(refused.body, /storefronts and the editor only/);
  }
});

t.test('without configured hosts, an Origin must still be the socket host itself', async (t) => {
  const server = await startDataServer(t);
  const host = new URL(server.url).host;
  t.equal((await upgradeStatus(t, server.wsUrl, { origin: `http://${host}` })).status, 101);
  t.equal((await upgradeStatus(t, server.wsUrl, { origin: 'https://evil.example' })).status, 403);
});

t.test('under pressure, upgrades are shed with 503 and Retry-After like every other request', async (t) => {
  let healthy = true;
  const server = await startDataServer(t, {}, (app) =>
    app.register(fastifyUnderPressure, { healthCheck: async () => healthy, healthCheckInterval: 10 }),
  );
  const pressured = server.app as unknown as { isUnderPressure(): boolean };
  t.equal((await upgradeStatus(t, server.wsUrl)).status, 101, 'taken while healthy');
  healthy = false;
  await until(() => pressured.isUnderPressure(), { what: 'pressure' });
  const shed = await upgradeStatus(t, server.wsUrl);
  t.equal(shed.status, 503);
  t.equal(shed.retryAfter, '10');
  healthy = true;
  await until(() => !pressured.isUnderPressure(), { what: 'relief' });
  t.equal((await upgradeStatus(t, server.wsUrl)).status, 101, 'taken again once it recovers');
});

t.test('a socket with no subscription is closed when idle, pings or not; one with a subscription stays', async (t) => {
  // Long enough that a loaded machine still answers a ping before the idle close.
  const server = await startDataServer(t, { socketLimits: { idleMs: 600 } });
  const idle = await connected(t, server);
  idle.socket.send(JSON.stringify({ type: 'ping' }));
  const busy = await connected(t, server);
  busy.socket.send(
    JSON.stringify({
      id: '1',
      type: 'subscribe',
      payload: { query: 'subscription { productUpdated(ids: ["4711"], locale: "en-GB") { id } }' },
    }),
  );
  const pings = setInterval(() => idle.socket.send(JSON.stringify({ type: 'ping' })), 20);
  t.teardown(() => clearInterval(pings));
  t.same(await idle.closed, SOCKET_CLOSE.idle, 'closed 1000 despite a ping every 20 ms');
  t.ok(
    idle.messages.some((m) => m.type === 'pong'),
    'its pings were answered meanwhile',
  );
  t.equal(busy.socket.readyState, WebSocket.OPEN, 'the socket holding a subscription is still open');
  server.catalog.update({ id: '4711', locale: 'en-GB', amount: 1 });
  await until(() => busy.messages.some((m) => m.type === 'next'), { what: 'the update' });
});

t.test('one socket has at most 10 operations in flight; more are refused, not queued', async (t) => {
  const server = await startDataServer(t);
  const { socket, messages } = await connected(t, server);
  // One write, so the server reads them all before any answer goes out.
  const raw = (socket as unknown as { _socket: Socket })._socket;
  raw.cork();
  for (let id = 1; id <= 30; id++) {
    socket.send(JSON.stringify({ id: String(id), type: 'subscribe', payload: { query: '{ __typename }' } }));
  }
  raw.uncork();
  await until(() => messages.filter((m) => m.type === 'complete' || m.type === 'error').length === 30, {
    what: 'answers',
  });
  const refused = messages.filter((m) => m.type === 'error');
  t.ok(refused.length >= 1, `${refused.length} refused`);
  t.ok(messages.filter((m) => m.type === 'next').length >= 10, 'the first ten are answered');
  for (const error of refused) {
    t.match(error.payload[0], {
      message: /At most 10 operations in flight/,
      extensions: { code: 'TOO_MANY_IN_FLIGHT' },
    });
  }
});

t.test('a client that stops reading is closed with 1008 once its unread messages pass the bound', async (t) => {
  const bound = 16 * 1024;
  const server = await startDataServer(t, { socketLimits: { bufferedBytes: bound } });
  let serverSide: Socket | undefined;
  server.app.server.on('upgrade', (_request, socket: Socket) => {
    serverSide = socket;
  });
  const { socket, closed } = await connected(t, server);
  const ids = JSON.stringify(server.catalog.ids());
  const query = `subscription { productUpdated(ids: ${ids}, locale: "en-GB") { id name price { formatted } pricingFootnotesContainer { pricingFootnotes { code formattedFootnote } } } }`;
  for (let id = 1; id <= 100; id++)
    socket.send(JSON.stringify({ id: String(id), type: 'subscribe', payload: { query } }));
  await until(() => server.catalog.watchers() === 100, { what: 'the subscriptions' });
  (socket as unknown as { _socket: Socket })._socket.pause();
  // Change prices until the kernel's buffers are full and the server starts queueing on its side.
  let amount = 1;
  const changeAll = () => {
    for (const id of server.catalog.ids()) server.catalog.update({ id, locale: 'en-GB', amount: amount++ });
  };
  await until(
    () => {
      changeAll();
      return (serverSide?.writableLength ?? 0) > bound;
    },
    { what: 'the server to queue', timeout: 20_000 },
  );
  // The prices keep moving while nothing is read: the server's next send past the bound closes the
  // socket, and the close frame, stuck behind the queue, cannot get through, so the server cuts
  // it. Waiting for the cut itself, not a moment, keeps this independent of the machine's speed.
  await until(
    () => {
      changeAll();
      return serverSide?.destroyed === true;
    },
    { what: 'the server to cut the socket', timeout: 30_000 },
  );
  (socket as unknown as { _socket: Socket })._socket.resume();
  const { code } = await closed;
  t.ok(
    code === SOCKET_CLOSE.slowReader.code || code === 1006,
    `the client sees the close frame if it got through before the cut, else the cut (${code})`,
  );
});

t.test('the server holds a bounded number of subscriptions over all sockets together', async (t) => {
  const server = await startDataServer(t, { socketLimits: { subscriptions: 3 } });
  const subscribe = (socket: WebSocket, id: string) =>
    socket.send(
      JSON.stringify({
        id,
        type: 'subscribe',
        payload: { query: 'subscription { productUpdated(ids: ["4711"], locale: "en-GB") { id } }' },
      }),
    );
  const first = await connected(t, server);
  subscribe(first.socket, '1');
  subscribe(first.socket, '2');
  await until(() => server.catalog.watchers() === 2, { what: 'two subscriptions' });
  const second = await connected(t, server);
  subscribe(second.socket, '1');
  await until(() => server.catalog.watchers() === 3, { what: 'the third' });
  subscribe(second.socket, '2');
  await until(() => second.messages.some((m) => m.type === 'error'), { what: 'the refusal' });
  t.match(second.messages.find((m) => m.type === 'error').payload[0], {
    message: /as many subscriptions as it can/,
    extensions: { code: 'TOO_MANY_SUBSCRIPTIONS' },
  });
  first.socket.send(JSON.stringify({ id: '1', type: 'complete' }));
  await until(() => server.catalog.watchers() === 2, { what: 'one ended' });
  subscribe(second.socket, '3');
  await until(() => server.catalog.watchers() === 3, { what: 'room again for one' });
  t.pass('a freed place is taken again');
});

t.test("the site's socket takes its storefronts' hosts and pages and the editor, nothing else", async (t) => {
  const app = await demoServer({ data: { demoChangeMs: 0, tokenSecret: 'x'.repeat(32) } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  const { port } = app.server.address() as { port: number };
  const url = `ws://127.0.0.1:${port}/graphql`;
  const host = `www.halden.co.uk:${port}`;
  t.equal((await upgradeStatus(t, url, { host, origin: `http://${host}` })).status, 101, 'its own page');
  t.equal((await upgradeStatus(t, url, { host, origin: EDITOR })).status, 101, 'the editor');
  t.equal((await upgradeStatus(t, url, { host, origin: 'https://evil.example' })).status, 403, 'a foreign page');
  t.equal((await upgradeStatus(t, url, { host: 'evil.example' })).status, 403, 'a foreign Host');
});

t.test('an operation that does not parse is an error for it alone; the socket stays open', async (t) => {
  const server = await startDataServer(t);
  const { socket, messages } = await connected(t, server);
  socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: '{ product(' } }));
  await until(() => messages.some((m) => m.type === 'error'), { what: 'the error' });
  t.match(messages.find((m) => m.type === 'error').payload[0], { message: /Syntax Error/ });
  socket.send(JSON.stringify({ id: '2', type: 'subscribe', payload: { query: '{ __typename }' } }));
  await until(() => messages.some((m) => m.type === 'next'), { what: 'the next answer' });
  t.equal(socket.readyState, WebSocket.OPEN);
});

t.test('a socket sending past its message budget is closed with 1008 and answered no further', async (t) => {
  const server = await startDataServer(t, {}, async (app) => {
    app.get('/healthcheck', async () => 'ok');
  });
  const { socket, messages, closed } = await connected(t, server);
  // About the costliest document the bounds let through: as many fields of one name as allowed.
  const query = `{ product(id: "4711", locale: "en-GB") { ${'id '.repeat(MAX_FIELDS - 1)} } }`;
  const raw = (socket as unknown as { _socket: Socket })._socket;
  raw.cork();
  for (let id = 1; id <= 1000; id++)
    socket.send(JSON.stringify({ id: String(id), type: 'subscribe', payload: { query } }));
  raw.uncork();
  const started = performance.now();
  const health = await fetch(server.url.replace('/graphql', '/healthcheck'));
  t.equal(health.status, 200, `/healthcheck answered meanwhile (${Math.round(performance.now() - started)} ms)`);
  t.same(await closed, SOCKET_CLOSE.tooManyMessages);
  // Without the budget, all 1,000 were parsed and validated and 990 refused as too many in flight.
  const answered = messages.filter((m) => m.id);
  t.equal(answered.filter((m) => m.type === 'error').length, 0, `no refusals sent (${answered.length} answers)`);
});

t.test('under pressure, new socket operations are shed; the socket and what it holds stay', async (t) => {
  let healthy = true;
  const server = await startDataServer(t, {}, (app) =>
    app.register(fastifyUnderPressure, { healthCheck: async () => healthy, healthCheckInterval: 10 }),
  );
  const pressured = server.app as unknown as { isUnderPressure(): boolean };
  const { socket, messages } = await connected(t, server);
  healthy = false;
  await until(() => pressured.isUnderPressure(), { what: 'pressure' });
  socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: '{ __typename }' } }));
  await until(() => messages.some((m) => m.id === '1'), { what: 'the answer' });
  t.match(
    messages.find((m) => m.id === '1'),
    {
      type: 'error',
      payload: [{ message: /busy/, extensions: { code: 'SERVER_BUSY' } }],
    },
  );
  healthy = true;
  await until(() => !pressured.isUnderPressure(), { what: 'relief' });
  socket.send(JSON.stringify({ id: '2', type: 'subscribe', payload: { query: '{ __typename }' } }));
  await until(() => messages.some((m) => m.id === '2' && m.type === 'next'), { what: 'an answer once it recovers' });
  t.equal(socket.readyState, WebSocket.OPEN);
});

/** A raw upgrade request for the GraphQL path, from `origin`; resolves with the server's end of the socket. */
function rawUpgrade(server: DataServer, origin: string, extraHeaders: string[] = [], version = '1.1') {
  const { port } = new URL(server.url);
  // Half-open allowed: a client that reads the answer and never closes its side.
  const client = connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: true });
  client.on('error', () => {});
  const serverSide = new Promise<Socket>((resolve) => server.app.server.once('upgrade', (_r, s: Socket) => resolve(s)));
  client.write(
    [
      `GET /graphql HTTP/${version}`,
      `Host: 127.0.0.1:${port}`,
      `Origin: ${origin}`,
      'Upgrade: websocket',
      'Connection: Upgrade',
      'Sec-WebSocket-Version: 13',
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
      'Sec-WebSocket-Protocol: graphql-transport-ws',
      ...extraHeaders,
      '',
      '',
    ].join('\r\n'),
  );
  const answer = new Promise<string>((resolve) => client.once('data', (chunk) => resolve(String(chunk))));
  return { client, serverSide, answer };
}

t.test('a refused upgrade reset by its client does not take the process down; the socket is closed', async (t) => {
  const refused: string[] = [];
  const server = await startDataServer(t, { onUpgradeRefused: (reason) => refused.push(reason) });
  for (let i = 0; i < 3; i++) {
    const { client, serverSide, answer } = rawUpgrade(server, 'https://evil.example');
    t.match(await answer, /^HTTP\/1\.1 403 /, 'answered 403');
    const socket = await serverSide;
    const closed = new Promise((resolve) => socket.once('close', resolve));
    // A TCP reset: the server's next read or write fails with ECONNRESET, which once had no listener.
    client.resetAndDestroy();
    await closed;
  }
  t.same(refused, ['origin', 'origin', 'origin'], 'each refusal counted with its reason');
  t.equal((await upgradeStatus(t, server.wsUrl)).status, 101, 'still serving');
});

t.test('a refused upgrade whose client never closes is cut at the deadline, not held open', async (t) => {
  const server = await startDataServer(t, { socketLimits: { refusedGraceMs: 100 } });
  const { client, serverSide, answer } = rawUpgrade(server, 'https://evil.example');
  t.teardown(() => client.destroy());
  t.match(await answer, /^HTTP\/1\.1 403 /);
  const socket = await serverSide;
  // The client reads the answer and then holds the connection without closing its side.
  await new Promise((resolve) => socket.once('close', resolve));
  t.ok(socket.destroyed, 'the server destroyed its end');
  const ended = await until(() => client.readableEnded || client.destroyed, { what: 'the client to see the end' });
  t.ok(ended);
});

t.test('an upgrade with two Host headers is refused 400, whichever comes first', async (t) => {
  const refused: string[] = [];
  const sites = loadSitesConfig('config/sites.json').config;
  const server = await startDataServer(t, {
    upgrade: { resolveHost: createHostResolver(sites).resolve },
    onUpgradeRefused: (reason) => refused.push(reason),
  });
  const { port } = new URL(server.url);
  for (const second of ['evil.example', `127.0.0.1:${port}`]) {
    const { client, answer } = rawUpgrade(server, `http://127.0.0.1:${port}`, [`Host: ${second}`]);
    t.teardown(() => client.destroy());
    const head = await answer;
    t.match(head, /^HTTP\/1\.1 400 /, `a second Host ${second}`);
    t.match(head, /more than one Host header/);
  }
  t.same(refused, ['malformed', 'malformed']);
});

t.test('an upgrade over HTTP/1.0 is refused 400 (RFC 6455 asks for 1.1); over 1.1 it is taken', async (t) => {
  const refused: string[] = [];
  const server = await startDataServer(t, { onUpgradeRefused: (reason) => refused.push(reason) });
  const { port } = new URL(server.url);
  const old = rawUpgrade(server, `http://127.0.0.1:${port}`, [], '1.0');
  t.teardown(() => old.client.destroy());
  const head = await old.answer;
  t.match(head, /^HTTP\/1\.1 400 /);
  t.match(head, /needs HTTP\/1\.1/);
  t.same(refused, ['malformed']);
  const current = rawUpgrade(server, `http://127.0.0.1:${port}`);
  t.teardown(() => current.client.destroy());
  t.match(await current.answer, /^HTTP\/1\.1 101 /);
});

t.test('behind a trusted proxy, the per-client socket cap counts each visitor, not the proxy', async (t) => {
  const app = await demoServer({
    trustProxy: '127.0.0.1',
    data: { demoChangeMs: 0, tokenSecret: 'x'.repeat(32), socketLimits: { perClient: 2 } },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  const { port } = app.server.address() as { port: number };
  const url = `ws://127.0.0.1:${port}/graphql`;
  const from = (visitor: string) =>
    upgradeStatus(t, url, { host: `www.halden.co.uk:${port}`, 'x-forwarded-for': visitor });
  t.equal((await from('203.0.113.1')).status, 101);
  t.equal((await from('203.0.113.1')).status, 101);
  t.equal((await from('203.0.113.1')).status, 503, "the visitor's third");
  for (let visitor = 2; visitor <= 5; visitor++) {
    t.equal((await from(`203.0.113.${visitor}`)).status, 101, `visitor ${visitor} through the same proxy`);
  }
});
