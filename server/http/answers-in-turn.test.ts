import { connect, type Socket } from 'node:net';
import Fastify from 'fastify';
import t, { type Test } from 'tap';
import { until } from '../../test/until.ts';
import { answerInTurn } from './answers-in-turn.ts';

/** An app whose `/held/:n` answers only when the test lets it; counts the handlers in progress. */
async function heldApp(t: Test) {
  const app = Fastify();
  const turns = answerInTurn(app);
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
  return { port, turns, started, release, mostInProgress: () => mostInProgress };
}

function connected(t: Test, port: number): Promise<Socket> {
  const socket = connect({ port, host: '127.0.0.1' });
  socket.on('error', () => {});
  t.teardown(() => socket.destroy());
  return new Promise((resolve) => socket.once('connect', () => resolve(socket)));
}

const get = (path: string, method = 'GET') => `${method} ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`;

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
