import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import t, { type Test } from 'tap';
import { demoServer } from '../../test/helpers.ts';
import { until } from '../../test/until.ts';
import { Metrics } from '../observability/metrics.ts';
import { ABANDONED_HEADS_CHURN, connectionCaps, IN_FLIGHT_MAX, socketCap } from './connection-caps.ts';

/** The caps over a real port: connections from several loopback addresses (all of 127/8 is this machine). */

async function listening(t: Test, app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  return (app.server.address() as { port: number }).port;
}

/** A connection from `from` that has sent half a request and holds it; resolves once it is open. */
function hold(t: Test, port: number, from: string): Promise<Socket> {
  const socket = connect({ port, host: '127.0.0.1', localAddress: from });
  socket.on('error', () => {});
  t.teardown(() => socket.destroy());
  return new Promise((resolve) =>
    socket.once('connect', () => {
      socket.write('GET /healthcheck HTTP/1.1\r\nHost: localhost\r\n');
      resolve(socket);
    }),
  );
}

/** A connection from `from` that sends nothing; resolves once it is open. */
function quiet(t: Test, port: number, from: string): Promise<Socket> {
  const socket = connect({ port, host: '127.0.0.1', localAddress: from });
  socket.on('error', () => {});
  t.teardown(() => socket.destroy());
  return new Promise((resolve) => socket.once('connect', () => resolve(socket)));
}

/** A kept-alive connection from `from` that has had one answer and sends nothing more; resolves once answered. */
function keptAlive(t: Test, port: number, from: string): Promise<Socket> {
  const socket = connect({ port, host: '127.0.0.1', localAddress: from });
  socket.on('error', () => {});
  t.teardown(() => socket.destroy());
  return new Promise((resolve) => {
    socket.once('data', () => resolve(socket));
    socket.write('GET /healthcheck HTTP/1.1\r\nHost: localhost\r\n\r\n');
  });
}

/** Resolves when the server has closed `socket`. */
function closed(socket: Socket): Promise<void> {
  if (socket.readableEnded || socket.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    socket.once('end', () => resolve());
    socket.once('close', () => resolve());
    socket.resume();
  });
}

/** The status of a whole request from `from`, or 0 when the connection is closed without an answer. */
function status(port: number, from: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from });
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk;
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(Number(data.split(' ')[1] ?? 0) || 0));
    socket.write('GET /healthcheck HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
  });
}

t.test('one address holds at most its cap; others are still served; a closed one frees its place', async (t) => {
  const metrics = new Metrics();
  const app = await demoServer({ connections: { total: 20, perAddress: 5 }, metrics });
  const port = await listening(t, app);
  const held = await Promise.all(Array.from({ length: 5 }, () => hold(t, port, '127.0.0.2')));
  t.equal(await status(port, '127.0.0.2'), 0, 'the sixth from the same address is closed unanswered');
  t.equal(await status(port, '127.0.0.1'), 200, 'another address is served');
  t.match((await metrics.text()).body, /vitrine_connections_refused_total\{reason="per_address"\} 1\b/, 'counted');
  const freed = new Promise((resolve) => held[0]?.once('close', resolve));
  held[0]?.destroy();
  await freed;
  t.equal(
    await until(async () => status(port, '127.0.0.2'), { what: 'the freed place' }),
    200,
    'a closed connection frees its place',
  );
});

/**
 * Relabels the peers the server sees: a connection from 127.0.N.x (a loopback address this machine
 * has) arrives as `as(x)`, so a test can hold connections "from" IPv6 addresses it cannot bind
 * without root. Only the label changes: the connection, its requests and answers are real.
 */
function relabelPeers(app: FastifyInstance, net: string, as: (x: number) => string): void {
  app.server.prependListener('connection', (socket: Socket) => {
    const peer = socket.remoteAddress ?? '';
    if (peer.startsWith(`${net}.`))
      Object.defineProperty(socket, 'remoteAddress', { value: as(Number(peer.split('.')[3])) });
  });
}

t.test('IPv6 addresses count by their /64 at the per-address cap; an IPv4-mapped address as itself', async (t) => {
  const metrics = new Metrics();
  const app = await demoServer({ connections: { total: 40, perAddress: 4, reserved: 0 }, metrics });
  // One host is handed a whole /64: eight of its addresses are one client.
  relabelPeers(app, '127.0.64', (x) => `2001:db8:a13:1::${x.toString(16)}`);
  // Eight /64s, eight clients.
  relabelPeers(app, '127.0.65', (x) => `2001:db8:b13:${x.toString(16)}::1`);
  // IPv4 through an IPv6 listener: its own address, never one group of ::ffff:0:0/96.
  relabelPeers(app, '127.0.66', (x) => `::ffff:198.51.100.${x}`);
  const port = await listening(t, app);
  const refused = async () =>
    Number(
      /vitrine_connections_refused_total\{reason="per_address"\} (\d+)/.exec((await metrics.text()).body)?.[1] ?? 0,
    );
  for (let x = 1; x <= 4; x++) await hold(t, port, `127.0.64.${x}`);
  t.equal(await status(port, '127.0.64.5'), 0, 'a fifth address of the same /64 is closed unanswered');
  t.equal(await refused(), 1, 'refused at the per-address cap');
  for (let x = 1; x <= 5; x++) await hold(t, port, `127.0.65.${x}`);
  t.equal(await status(port, '127.0.65.6'), 200, 'addresses of six /64s, one each: served');
  for (let x = 1; x <= 5; x++) await hold(t, port, `127.0.66.${x}`);
  t.equal(await status(port, '127.0.66.6'), 200, 'six IPv4-mapped addresses, one each: served');
  t.equal(await refused(), 1, 'no other refusal');
});

t.test('the total cap holds against many addresses; a trusted proxy counts only toward the total', async (t) => {
  const app = await demoServer({ connections: { total: 12, perAddress: 4 }, trustProxy: '127.0.0.9' });
  const port = await listening(t, app);
  // The proxy carries many visitors: past the per-address cap, still served.
  const proxied = await Promise.all(Array.from({ length: 6 }, () => hold(t, port, '127.0.0.9')));
  t.equal(await status(port, '127.0.0.9'), 200, 'a seventh connection from the proxy');
  // One each from six addresses, silent and young: no address holds more than a newcomer would, so none gives way.
  await Promise.all(Array.from({ length: 6 }, (_, i) => quiet(t, port, `127.0.1.${i + 1}`)));
  // 6 + 6: full once the server has seen the seventh proxied connection close.
  t.ok(
    await until(async () => (await status(port, '127.0.0.5')) === 0, { what: 'the refusal' }),
    'full: a new address is closed unanswered',
  );
  for (const socket of proxied) socket.destroy();
  t.equal(
    await until(async () => status(port, '127.0.0.5'), { what: 'room again' }),
    200,
    'room again once they close',
  );
});

t.test(
  'at the cap, a newcomer takes the place of the longest-idle kept-alive connection, never of one mid-request',
  async (t) => {
    const metrics = new Metrics();
    const app = await demoServer({ connections: { total: 12, perAddress: 4 }, metrics });
    const port = await listening(t, app);
    // One after another, so the first is the longest idle.
    const idle: Socket[] = [];
    for (const from of ['127.0.0.3', '127.0.0.4'])
      for (let i = 0; i < 4; i++) idle.push(await keptAlive(t, port, from));
    const busy = await Promise.all(Array.from({ length: 4 }, () => hold(t, port, '127.0.0.5')));
    // The longest idle begins a new request: no longer idle. Another's round trip after it means
    // the server has read those bytes (both arrive in the same turn of its loop, or these first).
    idle[0]?.write('GET /healthcheck HTTP/1.1\r\n');
    const again = idle[7] as Socket;
    await new Promise((resolve) => {
      again.once('data', resolve);
      again.write('GET /healthcheck HTTP/1.1\r\nHost: localhost\r\n\r\n');
    });
    t.equal(await status(port, '127.0.0.6'), 200, 'full with 8 idle and 4 mid-request: a newcomer is served');
    await closed(idle[1] as Socket);
    t.pass('the longest idle with nothing begun made room');
    const kept = { began: [idle[0]], idle: idle.slice(2), busy };
    const ended = (sockets: (Socket | undefined)[]) => sockets.filter((s) => s?.readableEnded || s?.destroyed).length;
    t.same(
      { began: ended(kept.began), idle: ended(kept.idle), busy: ended(kept.busy) },
      { began: 0, idle: 0, busy: 0 },
      'the one that began a request, the other idle ones and those mid-request are all still open',
    );
    t.match((await metrics.text()).body, /vitrine_connections_idle_closed_total 1\b/, 'counted');
  },
);

/** Sends `count` pipelined copies of `one` (a whole request) in one write; resolves with the final answers read until the server closes. */
function pipelinedRequests(port: number, one: string, count: number): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.7' });
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk;
    });
    socket.on('error', () => {});
    // Interim answers (100 Continue) are not answers.
    socket.on('close', () => resolve(data.split('HTTP/1.1 ').length - 1 - (data.split('HTTP/1.1 100 ').length - 1)));
    // The last asks for the close, so a connection within the bound ends once every answer is sent.
    socket.write(one.repeat(count - 1) + one.replace('\r\n', '\r\nConnection: close\r\n'));
  });
}

/** Sends `count` pipelined GETs for `target` in one write; resolves with the answers read until the server closes. */
function pipelined(port: number, target: string, count: number): Promise<number> {
  return pipelinedRequests(port, `GET ${target} HTTP/1.1\r\nHost: localhost\r\n\r\n`, count);
}

const QUERY = '{"query":"{__typename}"}';
const POST = 'POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n';

/** A request of every kind of body, and one Node answers itself: each is answered within the read that carried it. */
const BODIES: Record<string, string> = {
  'Content-Length': `${POST}Content-Length: ${QUERY.length}\r\n\r\n${QUERY}`,
  chunked: `${POST}Transfer-Encoding: chunked\r\n\r\n${(10).toString(16)}\r\n${QUERY.slice(0, 10)}\r\n${(QUERY.length - 10).toString(16)}\r\n${QUERY.slice(10)}\r\n0\r\n\r\n`,
  'Expect: 100-continue': `${POST}Expect: 100-continue\r\nContent-Length: ${QUERY.length}\r\n\r\n${QUERY}`,
  // Not a body, but Node answers it 417 itself, without a 'request' event.
  'an unknown Expect': 'GET /healthcheck HTTP/1.1\r\nHost: localhost\r\nExpect: nope\r\n\r\n',
};

for (const [kind, one] of Object.entries(BODIES)) {
  t.test(`pipelined requests (${kind}) are held to the same bound as bodiless GETs`, async (t) => {
    const metrics = new Metrics();
    const app = await demoServer({ metrics });
    const port = await listening(t, app);
    // Every answered request, whatever its kind and status.
    const handled = async () =>
      [...(await metrics.text()).body.matchAll(/^vitrine_http_requests_total\{[^}]*\} (\d+)$/gm)].reduce(
        (sum, [, n]) => sum + Number(n),
        0,
      );
    t.equal(
      await pipelinedRequests(port, one, IN_FLIGHT_MAX),
      IN_FLIGHT_MAX,
      `${IN_FLIGHT_MAX} pipelined: all answered`,
    );
    const within = await handled();
    t.ok((await pipelinedRequests(port, one, 50)) <= IN_FLIGHT_MAX, '50 pipelined: closed, the excess unanswered');
    t.ok((await handled()) - within <= IN_FLIGHT_MAX, 'no more than the bound were handled');
    t.match((await metrics.text()).body, /vitrine_connections_cut_total\{reason="pipelined"\} 1\b/, 'counted');
  });
}

t.test(
  'a connection with more requests in flight than the bound is closed before any work for the excess',
  async (t) => {
    const metrics = new Metrics();
    const app = await demoServer({ metrics });
    const port = await listening(t, app);
    const handled = async () =>
      Number(/vitrine_http_requests_total\{[^}]*\} (\d+)/.exec((await metrics.text()).body)?.[1] ?? 0);
    const before = await handled();
    t.equal(
      await pipelined(port, '/healthcheck', IN_FLIGHT_MAX),
      IN_FLIGHT_MAX,
      `${IN_FLIGHT_MAX} pipelined: all answered`,
    );
    const within = await handled();
    t.ok(within - before <= IN_FLIGHT_MAX, 'counted as requests');
    t.ok(
      (await pipelined(port, '/healthcheck', 50)) < IN_FLIGHT_MAX + 1,
      '50 pipelined: closed, the excess unanswered',
    );
    t.ok((await handled()) - within <= IN_FLIGHT_MAX, 'no more than the bound were handled');
    t.match((await metrics.text()).body, /vitrine_connections_cut_total\{reason="pipelined"\} 1\b/, 'counted');
  },
);

t.test('nothing behind the request past the bound is parsed, however much of it came in the same read', async (t) => {
  const app = await demoServer();
  const port = await listening(t, app);
  let parsed = 0;
  app.server.prependListener('request', () => {
    parsed++;
  });
  // About 50 KB: one read, or a few.
  t.ok((await pipelined(port, '/healthcheck', 2_000)) <= IN_FLIGHT_MAX, 'closed, the excess unanswered');
  t.equal(parsed, IN_FLIGHT_MAX + 1, `${parsed} of 2,000 requests parsed: the bound and the one past it`);
});

/**
 * What a held connection sends and then holds: nothing, half a head, a whole request answered and
 * half the next head (kept alive), a whole head and part of a body that keeps coming (an upload that
 * moves), or one that stopped coming.
 */
type Held =
  | 'silent'
  | 'slow head'
  | 'next head'
  | 'upload'
  | 'stalled upload'
  | 'renewed bodies'
  | 'posts with gaps'
  | 'posts in a row'
  | 'just answered';
const UPLOAD =
  'POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 16000\r\n\r\n{"query":';
const HELD: Record<Held, string> = {
  silent: '',
  'slow head': 'GET /healthcheck HTTP/1.1\r\nHost: localhost\r\nX-Slow: ',
  'next head': 'GET /healthcheck HTTP/1.1\r\nHost: localhost\r\n\r\n',
  upload: UPLOAD,
  'stalled upload': UPLOAD,
  'renewed bodies': '',
  'posts with gaps': '',
  'posts in a row': '',
  'just answered': '',
};
/** The request heads a held connection has sent once it holds its place. */
const HEADS: Partial<Record<Held, number>> = { upload: 1, 'posts in a row': 4, 'just answered': 1 };
/** A small GraphQL POST's head, its body to follow. */
const SMALL_POST = `${POST}Content-Length: 100\r\n\r\n`;
const SMALL_BODY = `{"query":"{__typename}"}`.padEnd(100, ' ');
/** The body rate of the tests' caps: a moving upload sends ten times as much, so a loaded machine's late timers never make it look stalled. */
const BODY_RATE = 50;

/** A connection from `from` holding `kind`; resolves once it is open. */
function holding(t: Test, port: number, from: string, kind: Held): Promise<Socket> {
  const socket = connect({ port, host: '127.0.0.1', localAddress: from });
  socket.on('error', () => {});
  t.teardown(() => socket.destroy());
  return new Promise((resolve) =>
    socket.once('connect', () => {
      if (HELD[kind]) socket.write(HELD[kind]);
      if (kind === 'next head') {
        // Answered, then half of its next head: the connection is kept alive.
        socket.once('data', () => socket.write(HELD['slow head'], () => resolve(socket)));
        return;
      }
      if (kind === 'renewed bodies') {
        // Each body whole in 0.4 s, in four pieces, the next head sent with its last piece: never
        // idle, never a body a second old, as the ninth attack's N1 (its answers come in between).
        socket.setNoDelay(true);
        socket.resume();
        const timers: NodeJS.Timeout[] = [];
        const stop = () => {
          for (const timer of timers) clearTimeout(timer);
        };
        socket.once('close', stop);
        t.teardown(stop);
        let heads = 0;
        const body = () => {
          if (++heads === 2) resolve(socket);
          for (let k = 1; k <= 4; k++)
            timers.push(
              setTimeout(() => {
                const piece = SMALL_BODY.slice((k - 1) * 25, k * 25);
                if (socket.destroyed) return;
                socket.write(k === 4 ? piece + SMALL_POST : piece);
                if (k === 4) body();
              }, 100 * k),
            );
        };
        socket.write(SMALL_POST);
        body();
        return;
      }
      if (kind === 'posts with gaps') {
        // A visitor's page: six small POSTs, each body a packet after its head, each answer followed
        // by a pause; then a seventh, its body begun once the server has taken its head (100 Continue).
        socket.setNoDelay(true);
        const timers: NodeJS.Timeout[] = [];
        t.teardown(() => {
          for (const timer of timers) clearTimeout(timer);
        });
        let answers = 0;
        const post = () => {
          if (answers === 6)
            return void socket.write(SMALL_POST.replace('\r\n\r\n', '\r\nExpect: 100-continue\r\n\r\n'));
          socket.write(SMALL_POST);
          timers.push(setTimeout(() => socket.write(SMALL_BODY), 20));
        };
        socket.on('data', (chunk) => {
          if (String(chunk).startsWith('HTTP/1.1 100 '))
            return void socket.write(SMALL_BODY.slice(0, 10), () => resolve(socket));
          answers += String(chunk).split('HTTP/1.1 ').length - 1;
          timers.push(setTimeout(post, 250));
        });
        post();
        return;
      }
      if (kind === 'posts in a row') {
        // A browser's slow POSTs on one connection, as the tenth attack's N6: three bodies each whole
        // in 0.4 s, the next sent on each answer (1.2 s in bodies), then a fourth that keeps coming.
        socket.setNoDelay(true);
        const timers: NodeJS.Timeout[] = [];
        const stop = () => {
          for (const timer of timers) clearTimeout(timer);
        };
        socket.once('close', stop);
        t.teardown(stop);
        const post = () => {
          socket.write(SMALL_POST);
          for (let k = 1; k <= 4; k++)
            timers.push(setTimeout(() => socket.write(SMALL_BODY.slice((k - 1) * 25, k * 25)), 100 * k));
        };
        let answers = 0;
        socket.on('data', (chunk) => {
          answers += String(chunk).split('HTTP/1.1 ').length - 1;
          if (answers < 3) return post();
          socket.write(UPLOAD);
          timers.push(setInterval(() => socket.write(' '.repeat(BODY_RATE)), 100));
          resolve(socket);
        });
        post();
        return;
      }
      if (kind === 'just answered') {
        // A small POST whole in one packet, answered, and nothing yet: a browser a moment before its
        // next POST on the connection, or a client renewing GETs on each answer between two of them.
        socket.write(SMALL_POST + SMALL_BODY);
        socket.once('data', () => resolve(socket));
        return;
      }
      if (kind === 'upload') {
        // 500 bytes a second of its 16,000: it outlasts the test.
        const moving = setInterval(() => socket.write(' '.repeat(BODY_RATE)), 100);
        socket.once('close', () => clearInterval(moving));
        t.teardown(() => clearInterval(moving));
      }
      resolve(socket);
    }),
  );
}

/**
 * A small POST from `from` whose body comes in four pieces over 0.4 s, on a connection of its own
 * that its client closes once answered: resolves once it is closed.
 */
function bodyOnItsOwnConnection(port: number, from: string): Promise<void> {
  const socket = connect({ port, host: '127.0.0.1', localAddress: from });
  socket.setNoDelay(true);
  socket.on('error', () => {});
  const timers: NodeJS.Timeout[] = [];
  socket.once('connect', () => {
    socket.write(SMALL_POST);
    for (let k = 1; k <= 4; k++)
      timers.push(setTimeout(() => socket.write(SMALL_BODY.slice((k - 1) * 25, k * 25)), 100 * k));
  });
  socket.once('data', () => socket.end());
  socket.resume();
  return new Promise((resolve) =>
    socket.once('close', () => {
      for (const timer of timers) clearTimeout(timer);
      resolve();
    }),
  );
}

/**
 * A GET from `from` sent `ms` (0.4 s) after its connection opened, on a connection its client closes
 * once answered, as the eleventh attack's N8 did (0.9 s): resolves once it is closed.
 */
function requestAfterWaiting(port: number, from: string, ms = 400): Promise<void> {
  const socket = connect({ port, host: '127.0.0.1', localAddress: from });
  socket.on('error', () => {});
  let timer: NodeJS.Timeout | undefined;
  socket.once('connect', () => {
    timer = setTimeout(() => socket.write('GET /healthcheck HTTP/1.1\r\nHost: localhost\r\n\r\n'), ms);
  });
  socket.once('data', () => socket.end());
  socket.resume();
  return new Promise((resolve) =>
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    }),
  );
}

/**
 * The statuses of `n` requests from `from`, each on its own connection, as a browser opens them: all
 * connected first, then each sends its head once the server has taken all of them in (`accepted`), so
 * the earlier ones hold places while the later connect.
 */
async function burst(port: number, from: string, n: number, accepted: () => Promise<unknown>): Promise<number[]> {
  const sockets = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<Socket>((resolve) => {
          const socket = connect({ port, host: '127.0.0.1', localAddress: from });
          socket.on('error', () => {});
          socket.once('connect', () => resolve(socket));
        }),
    ),
  );
  await accepted();
  return Promise.all(
    sockets.map(
      (socket) =>
        new Promise<number>((resolve) => {
          let data = '';
          socket.on('data', (chunk) => {
            data += chunk;
          });
          socket.on('close', () => resolve(Number(data.split(' ')[1] ?? 0) || 0));
          socket.write('GET /healthcheck HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
        }),
    ),
  );
}

const STALLED_HEAD_MS = connectionCaps().headMs;

/**
 * At the total cap with none idle: a connection whose head is not whole `headMs` after it connected,
 * or whose body has come slower than `bodyBytesPerSecond` since its first second, gives way to any
 * newcomer (decisions 0186, 0201); a younger one, or an upload that moves, only to a newcomer whose
 * address holds two fewer than its own (decision 0189).
 */
const atTheCap: {
  name: string;
  /** Per address (127.0.9.1, .2, …): what its connections hold, oldest first. */
  held: Held[][];
  /** False: the newcomer comes while every held connection is younger than `headMs`. */
  aged?: boolean;
  /** With `aged: false`, the `headMs` of the caps (else a minute). */
  headMs?: number;
  /** Per address: heads it began and abandoned (closed half sent) just before it held its connections. */
  abandoned?: number[];
  /** What each abandoned connection had sent when its client closed it: half a head unless given. */
  abandonedKind?: Held;
  /**
   * Per address: bodies of 0.4 s it sent one after another, each on a connection it closed once
   * answered, just before it held its connections (the tenth attack's N5, reconnecting per body).
   */
  closedBodies?: number[];
  /**
   * Per address: requests it sent 0.4 s after connecting, each on a connection it closed once
   * answered, just before it held its connections (the eleventh attack's N8).
   */
  waited?: number[];
  /** How long each of `waited` waits before its request: 400 ms unless given. */
  waitedMs?: number;
  newcomer: { from: string; connections: number };
  served: number;
  /** Which held connections are closed to make room: [address index, connection index]. */
  cut: [number, number][];
  /** Of `cut`, how many are closed as idle (counted apart from those cut mid-request). */
  idleClosed?: number;
}[] = [
  {
    name: 'one silent connection per address: a newcomer from a new address takes the oldest',
    held: Array.from({ length: 8 }, () => ['silent']),
    newcomer: { from: '127.0.9.100', connections: 1 },
    served: 1,
    cut: [[0, 0]],
  },
  {
    name: 'one slow-header connection per address: a newcomer from a new address takes the oldest',
    held: Array.from({ length: 8 }, () => ['slow head']),
    newcomer: { from: '127.0.9.100', connections: 1 },
    served: 1,
    cut: [[0, 0]],
  },
  {
    name: 'a browser burst of 6 from one address takes six stalled heads and never one of its own',
    held: Array.from({ length: 8 }, (_, a) => [a % 2 ? 'silent' : 'slow head']),
    newcomer: { from: '127.0.9.100', connections: 6 },
    served: 6,
    cut: [0, 1, 2, 3, 4, 5].map((a) => [a, 0]),
  },
  {
    name: 'stalled heads of the address holding the most give way first',
    held: [['silent'], ['silent', 'slow head', 'silent'], ['silent'], ['silent'], ['silent'], ['silent']],
    newcomer: { from: '127.0.9.100', connections: 2 },
    served: 2,
    cut: [
      [1, 0],
      [1, 1],
    ],
  },
  {
    name: 'connections younger than the stalled-head age do not give way to an address holding as many',
    held: Array.from({ length: 8 }, () => ['silent']),
    aged: false,
    newcomer: { from: '127.0.9.100', connections: 1 },
    served: 0,
    cut: [],
  },
  {
    name: 'with no stalled head, a young connection of an address holding two more than the newcomer gives way',
    held: [
      ['silent', 'silent', 'silent', 'silent', 'silent', 'silent'],
      ['silent', 'silent'],
    ],
    aged: false,
    newcomer: { from: '127.0.9.2', connections: 1 },
    served: 1,
    cut: [[0, 0]],
  },
  {
    name: 'a head that has begun to come gives way at any age: a browser sends its head whole',
    held: Array.from({ length: 8 }, () => ['slow head']),
    aged: false,
    newcomer: { from: '127.0.9.100', connections: 1 },
    served: 1,
    cut: [[0, 0]],
  },
  {
    name: 'a kept-alive connection whose next head has begun gives way at any age',
    held: Array.from({ length: 8 }, () => ['next head']),
    aged: false,
    newcomer: { from: '127.0.9.100', connections: 1 },
    served: 1,
    cut: [[0, 0]],
  },
  {
    name: `young silent connections of an address that abandoned ${ABANDONED_HEADS_CHURN} heads give way`,
    held: Array.from({ length: 8 }, () => ['silent']),
    aged: false,
    abandoned: [0, 0, 0, ABANDONED_HEADS_CHURN],
    newcomer: { from: '127.0.9.100', connections: 1 },
    served: 1,
    cut: [[3, 0]],
  },
  {
    name: `young silent connections of an address that abandoned ${ABANDONED_HEADS_CHURN - 1} heads do not`,
    held: Array.from({ length: 8 }, () => ['silent']),
    aged: false,
    abandoned: [0, 0, 0, ABANDONED_HEADS_CHURN - 1],
    newcomer: { from: '127.0.9.100', connections: 1 },
    served: 0,
    cut: [],
  },
  {
    name: `a newcomer from an address that abandoned ${ABANDONED_HEADS_CHURN} requests takes no stalled head's place`,
    held: Array.from({ length: 8 }, () => ['slow head']),
    abandoned: [0, 0, 0, 0, 0, 0, 0, 0, ABANDONED_HEADS_CHURN],
    newcomer: { from: '127.0.9.9', connections: 1 },
    served: 0,
    cut: [],
  },
  {
    name: 'of stalled heads, those of the address that abandoned the most heads give way first, before older ones',
    held: [['slow head'], ['slow head'], ['slow head'], ['slow head']],
    abandoned: [0, 1, 2, 0],
    newcomer: { from: '127.0.9.100', connections: 2 },
    served: 2,
    cut: [
      [2, 0],
      [1, 0],
    ],
  },
  {
    name: 'an upload that moves, still coming past its first second, gives way to a newcomer from an address holding as many',
    held: Array.from({ length: 8 }, () => ['upload']),
    newcomer: { from: '127.0.9.100', connections: 1 },
    served: 1,
    cut: [[0, 0]],
  },
  {
    name: 'an upload that moves in its first second does not give way to a newcomer from an address holding as many',
    held: Array.from({ length: 8 }, () => ['upload']),
    aged: false,
    newcomer: { from: '127.0.9.100', connections: 1 },
    served: 0,
    cut: [],
  },
  {
    name: 'of uploads past their first second, the address holding the most gives way first, then the longest in its body',
    held: [['upload'], ['upload', 'upload'], ['upload'], ['upload']],
    newcomer: { from: '127.0.9.100', connections: 2 },
    served: 2,
    cut: [
      [1, 0],
      [0, 0],
    ],
  },
  {
    name: 'bodies each whole within their first second, renewed back to back on one connection, give way: the one longest in bodies first',
    held: Array.from({ length: 6 }, () => ['renewed bodies']),
    newcomer: { from: '127.0.9.100', connections: 1 },
    served: 1,
    cut: [[0, 0]],
  },
  {
    name: "a visitor's single upload past its first second goes after a connection that has been sending bodies back to back for longer",
    held: [['renewed bodies'], ['upload']],
    newcomer: { from: '127.0.9.100', connections: 1 },
    served: 1,
    cut: [[0, 0]],
  },
  {
    name: 'a connection sending small POSTs with pauses between them does not give way while its next body comes',
    held: [['posts with gaps']],
    aged: false,
    headMs: STALLED_HEAD_MS,
    newcomer: { from: '127.0.9.100', connections: 1 },
    served: 0,
    cut: [],
  },
  {
    name: 'a body on a fresh connection gives way when its address spent a second in bodies on connections it closed',
    held: [['upload'], ['upload'], ['upload']],
    aged: false,
    headMs: STALLED_HEAD_MS,
    closedBodies: [3],
    newcomer: { from: '127.0.9.100', connections: 1 },
    served: 1,
    cut: [[0, 0]],
  },
  {
    name: "a browser's connection with seconds of slow POSTs in a row goes after a fresh one of an address that spent more in bodies on connections it closed",
    held: [['posts in a row'], ['upload']],
    aged: false,
    headMs: STALLED_HEAD_MS,
    closedBodies: [0, 6],
    newcomer: { from: '127.0.9.100', connections: 1 },
    served: 1,
    cut: [[1, 0]],
  },
  {
    name: 'a connection waiting for its first request gives way before a body when its address waited a second before requests on connections it closed',
    held: [['upload'], ['silent']],
    aged: false,
    headMs: STALLED_HEAD_MS,
    closedBodies: [3],
    waited: [0, 3],
    newcomer: { from: '127.0.9.100', connections: 1 },
    served: 1,
    cut: [[1, 0]],
  },
  {
    name: 'a young silent connection of an address that never waited before its requests keeps its place: the body of an address long in bodies gives way',
    held: [['upload'], ['silent']],
    aged: false,
    headMs: STALLED_HEAD_MS,
    closedBodies: [3],
    newcomer: { from: '127.0.9.100', connections: 1 },
    served: 1,
    cut: [[0, 0]],
  },
  {
    name: 'waits too short to hold a place do not count, however many: a busy server reads late, and the body of an address long in bodies gives way',
    held: [['upload'], ['silent']],
    aged: false,
    headMs: STALLED_HEAD_MS,
    closedBodies: [3],
    waited: [0, 25],
    waitedMs: 60,
    newcomer: { from: '127.0.9.100', connections: 1 },
    served: 1,
    cut: [[0, 0]],
  },
  {
    name: "a newcomer from an address that waited a second before its requests takes no body's place",
    held: [['upload'], ['upload']],
    aged: false,
    headMs: STALLED_HEAD_MS,
    closedBodies: [3],
    waited: [0, 0, 3],
    newcomer: { from: '127.0.9.3', connections: 1 },
    served: 0,
    cut: [],
  },
  {
    name: 'clients renewing requests on each answer, idle a moment between them, give way before the upload of an address that spent a second in bodies',
    held: [['upload'], ['just answered'], ['just answered'], ['just answered']],
    aged: false,
    headMs: STALLED_HEAD_MS,
    closedBodies: [3],
    newcomer: { from: '127.0.9.100', connections: 1 },
    served: 1,
    cut: [[1, 0]],
    idleClosed: 1,
  },
  {
    name: "a newcomer from an address long in bodies takes a body's place, not that of a connection idle a moment between a browser's requests",
    held: [['upload'], ['just answered']],
    aged: false,
    headMs: STALLED_HEAD_MS,
    closedBodies: [3, 0, 3],
    newcomer: { from: '127.0.9.3', connections: 1 },
    served: 1,
    cut: [[0, 0]],
  },
  {
    name: "a newcomer from an address that waited a second before its requests takes no place of a connection idle a moment, nor a body's",
    held: [['upload'], ['just answered']],
    aged: false,
    headMs: STALLED_HEAD_MS,
    closedBodies: [3],
    waited: [0, 0, 3],
    newcomer: { from: '127.0.9.3', connections: 1 },
    served: 0,
    cut: [],
  },
  {
    name: 'connections idle for a moment after each answer, and no body long in coming: a newcomer still takes the one idle longest',
    held: Array.from({ length: 8 }, () => ['just answered']),
    aged: false,
    headMs: STALLED_HEAD_MS,
    newcomer: { from: '127.0.9.100', connections: 1 },
    served: 1,
    cut: [[0, 0]],
    idleClosed: 1,
  },
  {
    name: `young uploads of an address that abandoned ${ABANDONED_HEADS_CHURN} bodies give way`,
    held: Array.from({ length: 8 }, () => ['upload']),
    aged: false,
    abandoned: [0, 0, 0, ABANDONED_HEADS_CHURN],
    abandonedKind: 'upload',
    newcomer: { from: '127.0.9.100', connections: 1 },
    served: 1,
    cut: [[3, 0]],
  },
  {
    name: 'one stalled upload per address: a newcomer from a new address takes the oldest',
    held: Array.from({ length: 8 }, () => ['stalled upload']),
    newcomer: { from: '127.0.9.100', connections: 1 },
    served: 1,
    cut: [[0, 0]],
  },
  {
    name: 'a stalled upload gives way before an upload that moves, whatever the counts',
    held: [['upload', 'upload', 'upload'], ['upload'], ['stalled upload'], ['upload'], ['upload']],
    newcomer: { from: '127.0.9.100', connections: 1 },
    served: 1,
    cut: [[2, 0]],
  },
  {
    name: 'stalled heads give way before uploads that move',
    held: [['upload', 'upload', 'upload'], ['upload'], ['silent'], ['upload'], ['slow head'], ['upload']],
    newcomer: { from: '127.0.9.100', connections: 2 },
    served: 2,
    cut: [
      [2, 0],
      [4, 0],
    ],
  },
  {
    name: 'with no stalled head, an upload that moves of an address holding two more than the newcomer gives way',
    held: [
      ['upload', 'upload', 'upload', 'upload', 'upload', 'upload'],
      ['upload', 'upload'],
    ],
    newcomer: { from: '127.0.9.2', connections: 1 },
    served: 1,
    cut: [[0, 0]],
  },
  {
    name: 'with no stalled head, a newcomer from the address holding the most is closed unanswered',
    held: [
      ['upload', 'upload', 'upload', 'upload', 'upload', 'upload'],
      ['upload', 'upload'],
    ],
    newcomer: { from: '127.0.9.1', connections: 1 },
    served: 0,
    cut: [],
  },
];

/** The rows with a connection idle a moment are not "with none idle". */
const atTheCapTitle = (row: (typeof atTheCap)[number]) =>
  `${row.held.flat().includes('just answered') ? 'at the cap' : 'at the cap with none idle'}: ${row.name}`;

for (const row of atTheCap)
  t.test(atTheCapTitle(row), async (t) => {
    const metrics = new Metrics();
    const total = row.held.flat().length;
    const app = await demoServer({
      connections: {
        total,
        perAddress: total,
        reserved: 0,
        bodyBytesPerSecond: BODY_RATE,
        ...(row.aged === false ? { headMs: row.headMs ?? 60_000 } : {}),
      },
      metrics,
    });
    const port = await listening(t, app);
    const open = async () => (await metrics.text()).body.match(/vitrine_connections_open (\d+)/)?.[1];
    let requests = 0;
    app.server.on('request', () => requests++);
    for (const [a, n] of (row.abandoned ?? []).entries())
      for (let i = 0; i < n; i++) {
        const seen = requests;
        const socket = await holding(t, port, `127.0.9.${a + 1}`, row.abandonedKind ?? 'slow head');
        // An abandoned body: closed once the server has its head, so it is a request cut short.
        if (row.abandonedKind === 'upload') await until(() => requests > seen, { what: 'the head to be received' });
        socket.destroy();
      }
    for (const [a, n] of (row.closedBodies ?? []).entries())
      for (let i = 0; i < n; i++) await bodyOnItsOwnConnection(port, `127.0.9.${a + 1}`);
    for (const [a, n] of (row.waited ?? []).entries())
      for (let i = 0; i < n; i++) await requestAfterWaiting(port, `127.0.9.${a + 1}`, row.waitedMs);
    await until(async () => (await open()) === '0', { what: 'the abandoned heads to be let go of' });
    // One after another, so the order they were admitted in is the order here.
    const held: Socket[][] = [];
    const seen = requests;
    for (const [a, kinds] of row.held.entries()) {
      const mine: Socket[] = [];
      for (const kind of kinds) mine.push(await holding(t, port, `127.0.9.${a + 1}`, kind));
      held.push(mine);
    }
    await until(async () => (await open()) === String(total), { what: 'every held connection counted' });
    // Rows that judge bodies still coming: the server has every head before the newcomer comes.
    if (row.closedBodies) {
      const heads = row.held.flat().reduce((sum, kind) => sum + (HEADS[kind] ?? 0), 0);
      await until(() => requests >= seen + heads, { what: "the held connections' heads to be received" });
    }
    if (row.aged !== false) {
      const since = Date.now();
      await until(() => Date.now() - since > STALLED_HEAD_MS, { what: 'the held connections to age' });
    }
    let accepted = 0;
    app.server.on('connection', (socket: Socket) => {
      if (socket.remoteAddress === row.newcomer.from) accepted++;
    });
    const { connections } = row.newcomer;
    const statuses = await burst(port, row.newcomer.from, connections, () =>
      until(() => accepted >= connections, { what: "the server to take the newcomer's connections in" }),
    );
    t.equal(statuses.filter((s) => s === 200).length, row.served, `served: ${statuses.join(' ')}`);
    const wanted = new Set(row.cut.map(([a, i]) => held[a]?.[i]));
    await Promise.all([...wanted].map((socket) => closed(socket as Socket)));
    const others = held.flat().filter((socket) => !wanted.has(socket) && (socket.readableEnded || socket.destroyed));
    t.equal(others.length, 0, 'the others are still open');
    const cut = /vitrine_connections_cut_total\{reason="incomplete"\} (\d+)/.exec((await metrics.text()).body)?.[1];
    const idle = row.idleClosed ?? 0;
    t.equal(Number(cut ?? 0), row.cut.length - idle, `${row.cut.length - idle} counted as cut`);
    const idleClosed = /vitrine_connections_idle_closed_total (\d+)/.exec((await metrics.text()).body)?.[1];
    t.equal(Number(idleClosed ?? 0), idle, `${idle} counted as idle`);
  });

t.test(
  "at the cap, the machine's own probes never count as waiting: their waits, however long, make no connection of theirs give way",
  async (t) => {
    const metrics = new Metrics();
    const app = await demoServer({
      connections: { total: 2, perAddress: 2, reserved: 0, bodyBytesPerSecond: BODY_RATE, headMs: STALLED_HEAD_MS },
      metrics,
    });
    const port = await listening(t, app);
    let requests = 0;
    app.server.on('request', () => requests++);
    // A probe slowed by a busy loop, three times 0.4 s: over a second, as N11 of the twelfth attack made it.
    for (let i = 0; i < 3; i++) await requestAfterWaiting(port, '127.0.0.1');
    for (let i = 0; i < 3; i++) await bodyOnItsOwnConnection(port, '127.0.9.1');
    const upload = await holding(t, port, '127.0.9.1', 'upload');
    const probe = await holding(t, port, '127.0.0.1', 'silent');
    await until(() => requests >= 7, { what: "the upload's head to be received" });
    let accepted = 0;
    app.server.on('connection', (socket: Socket) => {
      if (socket.remoteAddress === '127.0.9.100') accepted++;
    });
    const statuses = await burst(port, '127.0.9.100', 1, () => until(() => accepted >= 1, { what: 'the newcomer' }));
    t.same(statuses, [200], 'the newcomer is served');
    await closed(upload);
    t.notOk(probe.destroyed || probe.readableEnded, "the probe's connection keeps its place; the long body gave way");
  },
);

t.test('a client that trickles its headers is cut at headersTimeout, not at the next 30 s check', async (t) => {
  const app = await demoServer({ timeouts: { requestMs: 500 } });
  const port = await listening(t, app);
  const socket = await hold(t, port, '127.0.0.1');
  // A byte every 50 ms keeps the connection busy, so the idle timeout never fires.
  const trickle = setInterval(() => socket.write('X'), 50);
  t.teardown(() => clearInterval(trickle));
  socket.write('X-Slow: ');
  const started = Date.now();
  await new Promise((resolve) => socket.once('close', resolve));
  clearInterval(trickle);
  const lived = Date.now() - started;
  t.ok(lived < 15_000, `cut after ${lived} ms (headersTimeout 500 ms, checked every second)`);
});

t.test(
  'a connection whose answers make no progress is closed at the connection deadline; an idle kept-alive one is not',
  async (t) => {
    const clientDir = mkdtempSync(join(tmpdir(), 'vitrine-stalled-'));
    t.teardown(() => rmSync(clientDir, { recursive: true, force: true }));
    // More than the kernel's buffers of both ends hold for a reader that never reads.
    writeFileSync(join(clientDir, 'large.js'), randomBytes(8 * 2 ** 20));
    const CONNECTION_MS = 1_000;
    const app = await demoServer({ clientDir, timeouts: { connectionMs: CONNECTION_MS } });
    const port = await listening(t, app);
    const serverSide = new Map<number, Socket>();
    app.server.on('connection', (socket: Socket) => serverSide.set(socket.remotePort ?? 0, socket));
    const idle = await keptAlive(t, port, '127.0.0.8');
    const idleSince = Date.now();
    const stalled = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.9' });
    stalled.on('error', () => {});
    t.teardown(() => stalled.destroy());
    await new Promise((resolve) => stalled.once('connect', resolve));
    stalled.pause();
    stalled.write(
      'GET /assets/large.js HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: identity\r\n\r\n'.repeat(IN_FLIGHT_MAX),
    );
    const held = await until(() => serverSide.get(stalled.localPort ?? 0), { what: 'the server side of it' });
    const started = Date.now();
    // Its answers stop once the buffers are full; the deadline runs from the last byte written.
    await until(() => held.destroyed, { what: 'the stalled connection to be closed', timeout: 30_000 });
    t.pass(`the stalled connection was closed ${Date.now() - started} ms after its requests`);
    // Idle for twice the connection deadline: the keep-alive deadline (72 s) is the one that holds it.
    await until(() => Date.now() - idleSince > 2 * CONNECTION_MS, { what: 'twice the deadline' });
    t.notOk(serverSide.get(idle.localPort ?? 0)?.destroyed, 'the idle kept-alive connection is still open');
  },
);

t.test(
  'the defaults leave half the descriptors for everything else, and places for the probes; one address never fills the total',
  async (t) => {
    const deadline = { firstByteMs: 10_000, headMs: 1_000, bodyBytesPerSecond: 1_024 };
    t.same(connectionCaps({}, 20_000), { total: 10_000, perAddress: 256, reserved: 16, ...deadline });
    t.same(connectionCaps({}, 1_024), { total: 512, perAddress: 64, reserved: 16, ...deadline });
    t.same(
      connectionCaps({}, 1_048_576),
      { total: 10_000, perAddress: 256, reserved: 16, ...deadline },
      'at most 10,000',
    );
    t.same(
      connectionCaps({ total: 100 }, 20_000),
      { total: 100, perAddress: 12, reserved: 6, ...deadline },
      'derived from a configured total',
    );
    t.same(connectionCaps({ total: 100, perAddress: 30, firstByteMs: 500 }), {
      total: 100,
      perAddress: 30,
      reserved: 6,
      firstByteMs: 500,
      headMs: 1_000,
      bodyBytesPerSecond: 1_024,
    });
  },
);

t.test('a connection that sends nothing is closed at the first-byte deadline; requests are served', async (t) => {
  const app = await demoServer({ connections: { firstByteMs: 300 } });
  const port = await listening(t, app);
  const silent = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.2' });
  silent.on('error', () => {});
  t.teardown(() => silent.destroy());
  const started = Date.now();
  await new Promise((resolve) => silent.once('close', resolve));
  t.ok(Date.now() - started < 10_000, `closed after ${Date.now() - started} ms, not held`);
  t.equal(await status(port, '127.0.0.2'), 200, 'a connection that sends its request is served');
});

t.test('the reserved places are for this machine itself: the probe gets in when the rest is full', async (t) => {
  const app = await demoServer({ connections: { total: 12, perAddress: 4, reserved: 2 } });
  const port = await listening(t, app);
  // One each from ten addresses, silent and young: no address holds more than a newcomer would, so none gives way.
  await Promise.all(Array.from({ length: 10 }, (_, i) => quiet(t, port, `127.0.1.${i + 1}`)));
  t.equal(await status(port, '127.0.0.6'), 0, 'past total minus the reserve, another address is closed unanswered');
  t.equal(await status(port, '127.0.0.1'), 200, 'the probe from 127.0.0.1 is served');
});

t.test(
  "a probe's kept-alive connection never gives its place to another address: the reserve stays the probes'",
  async (t) => {
    const app = await demoServer({ connections: { total: 12, perAddress: 4, reserved: 2 } });
    const port = await listening(t, app);
    // Answered and kept alive: idle, as a probe's connection is between its answer and its client's close.
    const probe = await keptAlive(t, port, '127.0.0.1');
    await Promise.all(Array.from({ length: 10 }, (_, i) => quiet(t, port, `127.0.1.${i + 1}`)));
    // Before: the newcomer took the probe's idle place, one place of the reserve each time, until a
    // probe found all twelve held (the twelfth attack's N11: 52–66 of 100 local health checks reset).
    t.equal(await status(port, '127.0.0.6'), 0, 'past total minus the reserve, another address is closed unanswered');
    t.notOk(probe.destroyed || probe.readableEnded, "the probe's idle connection keeps its place");
    t.equal(await status(port, '127.0.0.1'), 200, 'another probe is served');
  },
);

t.test('sockets get a quarter of the connection cap by default, and never more than half', async (t) => {
  t.equal(socketCap(connectionCaps({ total: 512 })), 128, 'a quarter');
  t.equal(socketCap(connectionCaps({ total: 10_000 })), 2_000, 'at most 2,000');
  t.equal(socketCap(connectionCaps({ total: 100 }), 50), 50, 'a configured cap up to half');
  t.throws(() => socketCap(connectionCaps({ total: 100 }), 51), {
    message: /SOCKETS_MAX \(51\) must be at most half of CONNECTIONS_MAX \(100\)/,
  });
});

t.test(
  'at the cap, a connection the server has ended (a refused upgrade its client holds) gives way first, before one mid-request',
  async (t) => {
    const app = await demoServer({ connections: { total: 6, perAddress: 4, reserved: 0 } });
    const port = await listening(t, app);
    const busy = await Promise.all(
      ['127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6', '127.0.0.7'].map((from) => hold(t, port, from)),
    );
    // Refused (foreign Origin) and answered; the client reads the answer and never closes its side.
    const refused = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.8' });
    refused.on('error', () => {});
    t.teardown(() => refused.destroy());
    const answer = new Promise<string>((resolve) => refused.once('data', (chunk) => resolve(String(chunk))));
    refused.write(
      'GET /graphql HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: https://evil.example\r\n\r\n',
    );
    t.match(await answer, /^HTTP\/1\.1 403 /, 'the upgrade is refused');
    t.equal(await status(port, '127.0.0.9'), 200, 'full with five mid-request and one ended: a newcomer is served');
    await until(() => refused.destroyed || refused.readableEnded, { what: 'the ended connection to be closed' });
    t.same(
      busy.filter((s) => s.readableEnded || s.destroyed).length,
      0,
      'the connections mid-request are all still open',
    );
  },
);

t.test(
  "a probe over its address's cap takes the place of that address's idle connection: a local client holding the cap shuts out no health check",
  async (t) => {
    const app = await demoServer({ connections: { total: 12, perAddress: 3, reserved: 2 } });
    const port = await listening(t, app);
    // The fourteenth attack's first finding: 50 kept-alive connections from 127.0.0.1 at its cap of
    // 50, and every health check from 127.0.0.1 was refused as over its address's cap (0 of 74).
    const hog = await Promise.all(Array.from({ length: 3 }, () => keptAlive(t, port, '127.0.0.1')));
    t.equal(await status(port, '127.0.0.1'), 200, 'the probe is served');
    t.equal(hog.filter((s) => s.destroyed || s.readableEnded).length, 1, 'one idle connection of its own gave way');
    t.equal(await status(port, '127.0.0.2'), 200, 'another address is served');
  },
);

/** A 32 MB answer: more than loopback's kernel buffers hold, so a client that reads none leaves bytes queued. */
const LARGE_ANSWER = Buffer.alloc(32 * 1024 * 1024, 'x');

/** A connection from `from` asking for `path`; resolves once its answer has begun to come. */
function asking(t: Test, port: number, from: string, path: string): Promise<Socket> {
  const socket = connect({ port, host: '127.0.0.1', localAddress: from });
  socket.on('error', () => {});
  t.teardown(() => socket.destroy());
  return new Promise((resolve) => {
    // A 'readable' listener reads the stream's buffer's worth and then no more until read.
    socket.once('readable', () => resolve(socket));
    socket.once('connect', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`));
  });
}

t.test(
  'at the cap, an answer whose client reads none of it for a second gives way; one its server streams slowly keeps its place',
  async (t) => {
    const app = await demoServer({ connections: { total: 2, perAddress: 1, reserved: 0 } });
    app.get('/large-answer', (_request, reply) => reply.type('application/octet-stream').send(LARGE_ANSWER));
    // An answer the server writes a little at a time, as a page waiting on a slow part does.
    app.get('/slow-stream', (_request, reply) => {
      let sent = 0;
      const body = new Readable({ read() {} });
      const more = setInterval(() => {
        body.push('.'.repeat(1024));
        if (++sent === 30) {
          clearInterval(more);
          body.push(null);
        }
      }, 100);
      return reply.type('text/plain').send(body);
    });
    const port = await listening(t, app);
    // The fourteenth attack's second finding: 390 connections from 10 addresses each asking for a
    // 211 KB script and reading nothing held every place, visitors 0 of 179 over 90 s; no rule could
    // cut a connection whose answer had begun.
    const streaming = await asking(t, port, '127.0.0.2', '/slow-stream');
    let streamed = '';
    streaming.on('data', (chunk) => {
      streamed += chunk;
    });
    const stuck = await asking(t, port, '127.0.0.3', '/large-answer');
    t.equal(await status(port, '127.0.0.4'), 0, 'a newcomer is refused while the stuck answer is young');
    await until(async () => (await status(port, '127.0.0.4')) === 200, {
      timeout: 10_000,
      every: 100,
      what: 'a newcomer served once the stuck reader has read nothing for a second',
    });
    // Cut, it ends once read; kept, it would end only at the keep-alive timeout, past the test's own.
    await closed(stuck);
    t.pass('the reader that read nothing gave way');
    await until(() => streamed.includes('\r\n0\r\n\r\n'), { timeout: 10_000, what: 'the slow stream to end' });
    t.notOk(streaming.destroyed, 'the answer its server streamed slowly kept its place to the end');
  },
);

t.test(
  "a probe over its address's cap takes the place of that address's own reader that has read nothing for a second",
  async (t) => {
    const app = await demoServer({ connections: { total: 12, perAddress: 3, reserved: 2 } });
    app.get('/large-answer', (_request, reply) => reply.type('application/octet-stream').send(LARGE_ANSWER));
    const port = await listening(t, app);
    // The fifteenth attack: 50 connections from 127.0.0.1 asking for the island script and reading
    // nothing, neither idle nor ended, kept every probe out (0 of 124) until Node dropped them at 60 s.
    await Promise.all(Array.from({ length: 3 }, () => asking(t, port, '127.0.0.1', '/large-answer')));
    await until(async () => (await status(port, '127.0.0.1')) === 200, {
      timeout: 10_000,
      every: 100,
      what: 'a probe served once its address’s readers have read nothing for a second',
    });
    t.pass('the probe is served');
  },
);
