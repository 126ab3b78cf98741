import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import Fastify from 'fastify';
import t, { type Test } from 'tap';
import { until } from '../../test/until.ts';
import { answerInTurn } from './answers-in-turn.ts';
import { IN_FLIGHT_MAX } from './connection-caps.ts';

/**
 * An app whose `/held/:n` answers only when the test lets it; counts the handlers in progress. Its
 * upgrade listener takes every upgrade it is handed (101) and records it.
 */
async function heldApp(t: Test) {
  const app = Fastify();
  const refused = { upgrades: 0, cut: 0 };
  const turns = answerInTurn(app, {
    onUpgradeRefused: () => refused.upgrades++,
    onUpgradeCut: () => refused.cut++,
  });
  const upgrades: string[] = [];
  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex) => {
    upgrades.push(request.url ?? '');
    socket.end('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
  });
  const started: string[] = [];
  const release: (() => void)[] = [];
  let inProgress = 0;
  let mostInProgress = 0;
  app.get('/held/:n', async (request) => {
    const { n } = request.params as { n: string };
    started.push(n);
    inProgress++;
    mostInProgress = Math.max(mostInProgress, inProgress);
    await new Promise<void>((resolve) => release.push(resolve));
    inProgress--;
    return `answer ${n}`;
  });
  app.get('/unchanged', (_request, reply) => reply.code(304).send());
  app.head('/bare', (_request, reply) => reply.header('content-length', '5').send());
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  const { port } = app.server.address() as { port: number };
  let connections = 0;
  app.server.on('connection', (socket: Socket) => {
    connections++;
    socket.once('close', () => connections--);
  });
  return {
    port,
    turns,
    started,
    release,
    upgrades,
    refused,
    mostInProgress: () => mostInProgress,
    connections: () => connections,
  };
}

function connected(t: Test, port: number): Promise<Socket> {
  const socket = connect({ port, host: '127.0.0.1' });
  socket.on('error', () => {});
  t.teardown(() => socket.destroy());
  return new Promise((resolve) => socket.once('connect', () => resolve(socket)));
}

const get = (path: string, method = 'GET') => `${method} ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`;
const upgrade =
  'GET /socket HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
  'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n';

/** Everything the server sends on `socket` until it ends or cuts it. */
function receivedUntilClosed(socket: Socket): Promise<string> {
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk;
  });
  return new Promise((resolve) => socket.once('close', () => resolve(received)));
}

t.test('pipelined requests are answered in order, one in progress at a time', async (t) => {
  const app = await heldApp(t);
  const socket = await connected(t, app.port);
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk;
  });
  socket.write([1, 2, 3, 4].map((n) => get(`/held/${n}`)).join(''));
  for (let n = 1; n <= 4; n++) {
    await until(() => app.release.length === n, { what: `request ${n} to start` });
    t.same(app.started, [1, 2, 3, 4].slice(0, n).map(String), `only requests up to ${n} started`);
    t.equal(app.turns.waiting(), 4 - n, `${4 - n} waiting their turn`);
    app.release[n - 1]?.();
  }
  await until(() => (received.match(/answer \d/g) ?? []).length === 4, { what: 'all four answers' });
  t.same(received.match(/answer \d/g), ['answer 1', 'answer 2', 'answer 3', 'answer 4'], 'in the order asked');
  t.equal(app.mostInProgress(), 1, 'never more than one answer in progress');
});

t.test('a connection reset with requests waiting lets them all go, and none is worked on', async (t) => {
  const app = await heldApp(t);
  const socket = await connected(t, app.port);
  socket.write([1, 2, 3, 4].map((n) => get(`/held/${n}`)).join(''));
  await until(() => app.turns.waiting() === 3, { what: 'three requests to wait behind the first' });
  socket.resetAndDestroy();
  await until(() => app.turns.waiting() === 0, { what: 'the waiting requests to be let go' });
  t.pass('no request left waiting');
  app.release[0]?.();
  t.same(app.started, ['1'], 'no handler ran for the requests behind the reset');
});

t.test('bodiless answers (HEAD, 304) hand the turn on', async (t) => {
  const app = await heldApp(t);
  const socket = await connected(t, app.port);
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk;
  });
  socket.write(get('/bare', 'HEAD') + get('/unchanged') + get('/bare', 'HEAD') + get('/held/1'));
  await until(() => app.release.length === 1, { what: 'the request behind them to start' });
  app.release[0]?.();
  await until(() => received.includes('answer 1'), { what: 'its answer' });
  t.same(
    received.match(/HTTP\/1\.1 \d+/g),
    ['HTTP/1.1 200', 'HTTP/1.1 304', 'HTTP/1.1 200', 'HTTP/1.1 200'],
    'each answered in turn',
  );
});

t.test('requests on a kept-alive connection, one after another, never wait', async (t) => {
  const app = await heldApp(t);
  const socket = await connected(t, app.port);
  for (let n = 1; n <= 3; n++) {
    const answered = new Promise((resolve) => socket.once('data', resolve));
    socket.write(get(`/held/${n}`));
    await until(() => app.release.length === n, { what: `request ${n} to start` });
    t.equal(app.turns.waiting(), 0, `request ${n} did not wait`);
    app.release[n - 1]?.();
    await answered;
  }
});

t.test('an upgrade pipelined behind an answer in progress is refused after that answer, never taken', async (t) => {
  const app = await heldApp(t);
  const socket = await connected(t, app.port);
  const received = receivedUntilClosed(socket);
  socket.write(get('/held/1') + upgrade);
  await until(() => app.release.length === 1, { what: 'the request before the upgrade to start' });
  app.release[0]?.();
  const answers = (await received).match(/HTTP\/1\.1 \d+|answer \d/g);
  t.same(answers, ['HTTP/1.1 200', 'answer 1', 'HTTP/1.1 400'], 'the earlier answer whole, then the refusal');
  t.match(await received, /must not be pipelined/, 'the refusal says why');
  t.same(app.upgrades, [], 'the upgrade listener never saw it');
  t.equal(app.refused.upgrades, 1, 'counted as refused');
});

t.test('a client that leaves while its refused upgrade waits is let go at once', async (t) => {
  const app = await heldApp(t);
  const socket = await connected(t, app.port);
  socket.write(get('/held/1') + upgrade);
  await until(() => app.refused.upgrades === 1, { what: 'the upgrade to be refused' });
  // Bytes after the upgrade (a frame sent before the 101) come before its end.
  socket.end('a frame');
  // Its answer still in progress: only the client's leaving can have closed the connection.
  await until(() => app.connections() === 0, { what: 'the server to close its side' });
  t.pass('closed while the answer before the upgrade was still in progress');
  app.release[0]?.();
});

t.test('an upgrade past the bound of requests in flight closes the connection', async (t) => {
  const app = await heldApp(t);
  const socket = await connected(t, app.port);
  const received = receivedUntilClosed(socket);
  const inFlight = Array.from({ length: IN_FLIGHT_MAX }, (_, n) => get(`/held/${n + 1}`));
  socket.write(inFlight.join('') + upgrade);
  t.notMatch(await received, /HTTP\/1\.1 101 /, 'no switch of protocols');
  t.same(app.upgrades, [], 'the upgrade listener never saw it');
  t.equal(app.refused.cut, 1, 'counted as cut');
  for (const release of app.release) release();
});

t.test('an upgrade with no answer before it on its connection is handed on', async (t) => {
  const app = await heldApp(t);
  const fresh = await connected(t, app.port);
  const first = receivedUntilClosed(fresh);
  fresh.write(upgrade);
  t.match(await first, /^HTTP\/1\.1 101 /, 'on a new connection');
  const kept = await connected(t, app.port);
  const received = receivedUntilClosed(kept);
  const answered = new Promise((resolve) => kept.once('data', resolve));
  kept.write(get('/held/1'));
  await until(() => app.release.length === 1, { what: 'the request to start' });
  app.release[0]?.();
  await answered;
  kept.write(upgrade);
  t.match(await received, /HTTP\/1\.1 101 /, 'on a kept-alive connection, once its answer is sent');
  t.same(app.upgrades, ['/socket', '/socket'], 'both taken');
  t.equal(app.refused.upgrades + app.refused.cut, 0, 'none refused');
});
