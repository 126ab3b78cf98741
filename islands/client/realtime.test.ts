import type { AddressInfo } from 'node:net';
import { mock } from 'node:test';
import t, { type Test } from 'tap';
import WebSocket, { WebSocketServer } from 'ws';
import { startDataServer } from '../../server/data/test-server.ts';
import { until } from '../../test/until.ts';
import { createRealtime, type RealtimeOptions } from './realtime.ts';

/**
 * The real-time channel against the embedded backend on a real port, and against a scripted
 * server for the close codes and invalid messages the real one never sends.
 */

const FAST = { retryBaseMs: 10, jitterMinMs: 1, jitterMaxMs: 5 } as const;
const UPDATES = 'subscription { productUpdated(ids: ["4711"], locale: "en-GB") { price { amount } } }';

function channel(t: Test, url: string, options: Partial<RealtimeOptions> = {}) {
  const logged: string[] = [];
  const errors: unknown[] = [];
  const realtime = createRealtime({
    url,
    token: () => null,
    webSocketImpl: WebSocket,
    log: (message) => logged.push(message),
    onError: (error) => errors.push(error),
    ...FAST,
    ...options,
  });
  t.teardown(() => realtime.dispose());
  return { realtime, logged, errors };
}

/** Collects a subscription's events; `ended` resolves on error or completion. */
function collect(realtime: ReturnType<typeof createRealtime>, query = UPDATES) {
  const values: unknown[] = [];
  let end!: (outcome: { error?: unknown }) => void;
  const ended = new Promise<{ error?: unknown }>((resolve) => (end = resolve));
  const unsubscribe = realtime.subscribe(
    { query },
    {
      next: (value) => values.push(value),
      error: (error) => end({ error }),
      complete: () => end({}),
    },
  );
  return { values, ended, unsubscribe };
}

/**
 * A graphql-transport-ws server that acknowledges, then does what `script` says with each socket:
 * the close codes and malformed messages the real backend never produces.
 */
async function scriptedServer(t: Test, script: (socket: WebSocket, attempt: number) => void) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', handleProtocols: () => 'graphql-transport-ws' });
  await new Promise((resolve) => wss.once('listening', resolve));
  let attempts = 0;
  const closes: number[] = [];
  wss.on('connection', (socket) => {
    const attempt = ++attempts;
    socket.once('message', () => script(socket, attempt));
    socket.once('close', (code) => closes.push(code));
  });
  t.teardown(() => new Promise<void>((resolve) => wss.close(() => resolve())));
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    attempts: () => attempts,
    /** Close codes as the server received them. */
    closes: () => closes,
  };
}

t.test('a subscription delivers changes and the channel reports it is connected', async (t) => {
  const server = await startDataServer(t);
  const { realtime } = channel(t, server.wsUrl);
  const statuses: string[] = [];
  realtime.onStatus((s) => statuses.push(s));
  const { values, unsubscribe } = collect(realtime);
  await until(() => server.catalog.watchers() === 1, { what: 'the subscription' });
  server.catalog.update({ id: '4711', locale: 'en-GB', amount: 555 });
  await until(() => values.length === 1, { what: 'the update' });
  t.same(values, [{ data: { productUpdated: { price: { amount: 555 } } } }]);
  t.same(statuses, ['connected']);
  unsubscribe();
});

t.test('suspended, the channel closes its socket and keeps the subscriptions; resumed, they go on', async (t) => {
  const closes: number[] = [];
  const server = await scriptedServer(t, (socket) => {
    socket.send(JSON.stringify({ type: 'connection_ack' }));
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as { id: string; type: string };
      if (message.type === 'subscribe') {
        socket.send(JSON.stringify({ id: message.id, type: 'next', payload: { data: { n: 1 } } }));
      }
    });
    socket.once('close', (code) => closes.push(code));
  });
  const { realtime, logged } = channel(t, server.url);
  const statuses: string[] = [];
  realtime.onStatus((s) => statuses.push(s));
  let ended = false;
  const values: unknown[] = [];
  realtime.subscribe(
    { query: 'subscription { n }' },
    { next: (value) => values.push(value), error: () => (ended = true), complete: () => (ended = true) },
  );
  await until(() => values.length === 1, { what: 'the first value' });

  realtime.suspend();
  await until(() => closes.length === 1, { what: 'the socket to close' });
  t.same(closes, [1000], 'a normal close, from the client');
  t.same(statuses, ['connected', 'idle'], 'suspended is not lost');
  t.equal(server.attempts(), 1, 'no reconnection while suspended');
  t.notOk(ended, "the caller's subscription did not end");

  realtime.resume();
  await until(() => values.length === 2, { what: 'a value after resuming' });
  t.equal(server.attempts(), 2, 'one new socket, on resume (a lost one would have reconnected within a few ms)');
  t.same(statuses, ['connected', 'idle', 'connected']);
  t.notOk(ended);
  t.same(logged, ['Socket closed with event 1000 Normal Closure']);
});

t.test('after the server drops the socket the channel backs off, reconnects and resubscribes', async (t) => {
  const server = await startDataServer(t);
  const waits: number[] = [];
  const { realtime, logged } = channel(t, server.wsUrl, { retryBaseMs: 40, jitterMinMs: 300, jitterMaxMs: 301 });
  const statuses: string[] = [];
  realtime.onStatus((s) => statuses.push(`${s}@${Date.now()}`));
  const { values } = collect(realtime);
  await until(() => server.catalog.watchers() === 1, { what: 'the subscription' });
  const dropped = Date.now();
  server.dropSockets();
  await until(() => statuses.length === 3, { what: 'lost and connected again' });
  waits.push(Number(statuses[2]?.split('@')[1]) - dropped);
  t.same(
    statuses.map((s) => s.split('@')[0]),
    ['connected', 'lost', 'connected'],
  );
  t.ok((waits[0] ?? 0) >= 40 + 300, `waited the back-off (base 40 ms + 300 ms jitter): ${waits[0]} ms`);
  t.match(logged, ['Socket closed with event 1006'], 'the close is logged');
  await until(() => server.catalog.watchers() === 1, { what: 'the resubscription' });
  server.catalog.update({ id: '4711', locale: 'en-GB', amount: 556 });
  await until(() => values.length === 1, { what: 'an update after the reconnect' });
  t.equal(server.upgrades(), 2);
});

t.test('the back-off doubles from the base, and gives up after the retry attempts', async (t) => {
  const server = await scriptedServer(t, (socket) => socket.close(4408, 'Connection initialisation timeout'));
  const started = Date.now();
  const { realtime, errors, logged } = channel(t, server.url, {
    retryAttempts: 3,
    retryBaseMs: 20,
    jitterMinMs: 1,
    jitterMaxMs: 2,
  });
  const { ended } = collect(realtime);
  const { error } = await ended;
  const elapsed = Date.now() - started;
  t.equal(server.attempts(), 4, 'the first attempt and 3 retries');
  t.ok(elapsed >= 20 + 40 + 80, `20 + 40 + 80 ms of back-off at least: ${elapsed} ms`);
  t.match(error, { code: 4408 });
  t.equal(errors.length, 1, 'the final error reaches the hook');
  t.equal(logged.length, 4);
});

const FATAL = [4500, 4005, 4400, 4004, 4401, 4406, 4409, 4429];
const RETRIED = [4403, 4408, 4504];

for (const code of FATAL) {
  t.test(`close code ${code} is fatal: no retry, the error goes to the hook`, async (t) => {
    const server = await scriptedServer(t, (socket) => socket.close(code, 'scripted'));
    const { realtime, errors, logged } = channel(t, server.url);
    const { error } = (await collect(realtime).ended) as { error: { code: number } };
    t.equal(error.code, code);
    t.equal(server.attempts(), 1, 'one connection only');
    t.match(errors, [{ code }]);
    t.same(logged, [`Socket closed with event ${code} scripted`]);
  });
}

for (const code of RETRIED) {
  t.test(`close code ${code} is retried`, async (t) => {
    const server = await scriptedServer(t, (socket, attempt) => {
      if (attempt === 1) socket.close(code, 'scripted');
      else socket.send(JSON.stringify({ type: 'connection_ack' }));
    });
    const { realtime, logged } = channel(t, server.url);
    collect(realtime);
    await until(() => realtime.status() === 'connected', { what: 'the second connection' });
    t.equal(server.attempts(), 2);
    t.same(logged, [`Socket closed with event ${code} scripted`]);
  });
}

t.test('the real backend refuses a forged token with 4403, which the client retries', async (t) => {
  const server = await startDataServer(t);
  const { realtime, logged, errors } = channel(t, server.wsUrl, { token: () => 'forged', retryAttempts: 1 });
  const { error } = await collect(realtime).ended;
  t.match(error, { code: 4403, reason: 'Forbidden' });
  t.same(logged, ['Socket closed with event 4403 Forbidden', 'Socket closed with event 4403 Forbidden']);
  t.equal(errors.length, 1);
});

const INVALID_MESSAGES: [string, unknown][] = [
  ['no type', { id: 'x', payload: {} }],
  ['a type that is not a string', { type: 7, id: 'x', payload: {} }],
  ['next without an id', { type: 'next', payload: { data: {} } }],
  ['next with an empty id', { type: 'next', id: '', payload: { data: {} } }],
  ['next with a payload that is not an object', { type: 'next', id: 'x', payload: 'data' }],
  ['error without an id', { type: 'error', payload: [{ message: 'x' }] }],
  ['complete with an id that is not a string', { type: 'complete', id: 5 }],
  ['a message that is not JSON', 'not json'],
];

for (const [what, message] of INVALID_MESSAGES) {
  t.test(`an invalid message is rejected (${what}): closed with 4004, not retried`, async (t) => {
    const server = await scriptedServer(t, (socket) => {
      socket.send(JSON.stringify({ type: 'connection_ack' }));
      socket.once('message', () => socket.send(typeof message === 'string' ? message : JSON.stringify(message)));
    });
    const { realtime, errors, logged } = channel(t, server.url);
    const { error } = await collect(realtime).ended;
    t.type(error, Error, "the subscription ends with the validator's error");
    t.same(errors, [error], 'which reaches the error hook, once');
    await until(() => server.closes().length === 1, { what: 'the close' });
    t.same(server.closes(), [4004], 'the client closed with 4004 Bad Response');
    t.match(logged, [/^Socket closed with event 4004 /]);
    // graphql-ws hands the error to the subscription only once it has given up reconnecting.
    t.equal(server.attempts(), 1, 'and did not come back');
  });
}

t.test('a message before the acknowledgement is rejected too', async (t) => {
  const server = await scriptedServer(t, (socket) =>
    socket.send(JSON.stringify({ type: 'next', id: 'x', payload: { data: {} } })),
  );
  const { realtime } = channel(t, server.url);
  const { error } = await collect(realtime).ended;
  t.match(error, { message: 'First message cannot be of type next' });
  await until(() => server.closes().length === 1, { what: 'the close' });
  t.same(server.closes(), [4004]);
});

t.test('keep-alive and acknowledgement timeout are off by default', async (t) => {
  // The client's timers run on a fake clock: a minute passes before the acknowledgement and another
  // after it, and the default client neither gives up waiting nor pings.
  mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  t.teardown(() => mock.timers.reset());
  const waiting: WebSocket[] = [];
  const subscribes: unknown[] = [];
  const server = await scriptedServer(t, (socket) => {
    waiting.push(socket);
    socket.on('message', (raw) => {
      const type = JSON.parse(String(raw)).type;
      t.not(type, 'ping', 'the client never pings');
      if (type === 'subscribe') subscribes.push(type);
    });
  });
  const { realtime } = channel(t, server.url, { retryBaseMs: undefined });
  collect(realtime);
  const socket = await until(() => waiting[0], { what: 'the connection' });
  mock.timers.tick(60_000);
  socket.send(JSON.stringify({ type: 'connection_ack' }));
  await until(() => realtime.status() === 'connected', { what: 'the late acknowledgement' });
  await until(() => subscribes.length === 1, { what: 'the subscription' });
  mock.timers.tick(60_000);
  // A second subscription's message arrives after any ping the client sent before it.
  collect(realtime);
  await until(() => subscribes.length === 2, { what: 'the second subscription' });
  t.equal(server.attempts(), 1);
});

t.test('restart closes with 4205 and reconnects at once, with the new token', async (t) => {
  const server = await startDataServer(t);
  let token: string | null = null;
  // A long back-off (1.5 s): a restart that skips it reconnects well within it.
  const { realtime, logged } = channel(t, server.wsUrl, { token: () => token, retryBaseMs: 1500 });
  const statuses: string[] = [];
  realtime.onStatus((s) => statuses.push(s));
  collect(realtime);
  await until(() => realtime.status() === 'connected', { what: 'the first connection' });
  token = server.tokens.sign({ sub: 'visitor', roles: [] });
  const restarted = Date.now();
  realtime.restart();
  await until(() => server.upgrades() === 2 && server.catalog.watchers() === 1, { what: 'the second connection' });
  t.ok(Date.now() - restarted < 1000, `reconnected without back-off: ${Date.now() - restarted} ms`);
  t.same(logged, ['Socket closed with event 4205 Client Restart']);
  t.same(statuses, ['connected'], 'a restart is not a lost connection');
  token = 'forged';
  realtime.restart();
  await until(() => logged.length >= 2, { what: 'the second restart' });
  t.equal(logged[1], 'Socket closed with event 4205 Client Restart');
  await until(() => logged.includes('Socket closed with event 4403 Forbidden'), { what: 'the new token checked' });
  t.pass('the reconnect carried the new (forged) token: the server refused it');
});
