import { connect, type Socket } from 'node:net';
import fc from 'fast-check';
import t from 'tap';
import { until } from '../until.ts';
import { ATTACKER, closedByServer, hostileCase, upgradeHeaders, worstHealthMs } from './attack.ts';
import { startProductionServer } from './production-server.ts';

/**
 * Property-based runs against the production build: random resets, half-closes and garbage at
 * every stage of an HTTP request and of a WebSocket upgrade (taken or refused), one connection
 * after another, while /healthcheck is probed throughout. Seeded and short by default;
 * `HOSTILE_RUNS=5000` runs more cases, `HOSTILE_MINUTES=30` runs batches until the time is up
 * (`HOSTILE_SEED` picks another seed). The figures are printed at the end.
 */
const RUNS = Number(process.env.HOSTILE_RUNS ?? 200);
const MINUTES = Number(process.env.HOSTILE_MINUTES ?? 0);
const SEED = Number(process.env.HOSTILE_SEED ?? 32);

const server = await startProductionServer(t);
const { port } = server;
const HOST = `www.halden.co.uk:${port}`;

/** The whole messages a connection is cut into: a page, a GraphQL POST, an upgrade taken and one refused. */
const graphqlBody = JSON.stringify({ query: '{ __typename }' });
const MESSAGES = {
  page: `GET /cs/kitchen/aquasense-60-dishwasher-4711 HTTP/1.1\r\nHost: ${HOST}\r\nAccept-Encoding: br\r\n\r\n`,
  graphql: `POST /graphql HTTP/1.1\r\nHost: ${HOST}\r\nContent-Type: application/json\r\nContent-Length: ${graphqlBody.length}\r\n\r\n${graphqlBody}`,
  upgrade: `GET /graphql HTTP/1.1\r\n${upgradeHeaders(HOST, [`Origin: http://${HOST}`]).join('\r\n')}\r\n\r\n`,
  refusedUpgrade: `GET /graphql HTTP/1.1\r\n${upgradeHeaders(HOST, ['Origin: https://evil.example']).join('\r\n')}\r\n\r\n`,
} as const;

const attack = fc.record({
  message: fc.constantFrom(...(Object.keys(MESSAGES) as (keyof typeof MESSAGES)[])),
  /** Where the message is cut, as a share of its length; 1 sends it whole and waits for the answer. */
  cut: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), fc.constant(1)),
  action: fc.constantFrom('reset', 'halfClose', 'garbage', 'close'),
  garbage: fc.uint8Array({ minLength: 1, maxLength: 512 }),
  /** Garbage ends with a reset or a half-close. */
  garbageEnd: fc.constantFrom('reset', 'halfClose'),
});
type Attack = typeof attack extends fc.Arbitrary<infer A> ? A : never;

const figures = { connections: 0, resets: 0, halfCloses: 0, garbageBytes: 0 };
const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

/** Resolves when the socket has something from the server, or the server has ended it. */
function answered(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    socket.once('data', () => resolve());
    socket.once('end', () => resolve());
    socket.once('close', () => resolve());
  });
}

async function run(step: Attack): Promise<void> {
  const socket = connect({ port, host: '127.0.0.1', localAddress: ATTACKER, allowHalfOpen: true });
  socket.on('error', () => {});
  figures.connections++;
  try {
    await new Promise((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('close', reject);
    });
    const message = Buffer.from(MESSAGES[step.message], 'latin1');
    const sent = step.cut === 1 ? message.length : Math.floor(step.cut * message.length);
    if (sent > 0) socket.write(message.subarray(0, sent));
    if (sent === message.length) await answered(socket);
    const end = step.action === 'garbage' ? step.garbageEnd : step.action;
    if (step.action === 'garbage') {
      socket.write(step.garbage);
      figures.garbageBytes += step.garbage.length;
    }
    if (end === 'reset') {
      figures.resets++;
      socket.resetAndDestroy();
    } else if (end === 'halfClose') {
      figures.halfCloses++;
      socket.end();
      // The server must end its side of a half-closed connection on its own (or by its timeouts).
      await closedByServer(socket);
    }
  } catch {
    // Closed by the server before it was connected: nothing more to do with it.
  } finally {
    socket.destroy();
  }
}

await hostileCase(
  t,
  server,
  'random resets, half-closes and garbage at every stage never stop the server',
  async (t) => {
    const deadline = Date.now() + MINUTES * 60_000;
    let batch = 0;
    // The resident size after each batch: a long run shows whether it levels off or keeps growing.
    const rss: number[] = [];
    do {
      await fc.assert(
        fc.asyncProperty(attack, async (step) => {
          await run(step);
          return server.alive();
        }),
        { seed: SEED + batch, numRuns: RUNS },
      );
      batch++;
      rss.push(server.rssBytes());
    } while (Date.now() < deadline && server.alive());
    // Read first, before any other metric: each read restarts the longest delay from there.
    const stall = await server.metric('nodejs_eventloop_lag_max_seconds');
    // Every connection the attacks opened is let go of (the monitor's own probe may be open).
    await until(async () => (await server.metric('vitrine_connections_open')) <= 1, {
      what: 'the connections to be let go of',
      timeout: 30_000,
    });
    t.comment(
      `${batch} batch(es) of ${RUNS} from seed ${SEED}: ${figures.connections} connections, ${figures.resets} resets, ${figures.halfCloses} half-closes, ${figures.garbageBytes} bytes of garbage; peak RSS ${mb(server.peakRssBytes())} MB`,
    );
    const at = (share: number) => mb(rss[Math.min(rss.length - 1, Math.floor(share * rss.length))] ?? 0);
    t.comment(
      `RSS after a tenth of the batches ${at(0.1)} MB, half ${at(0.5)} MB, all ${at(1)} MB; the event loop's longest delay ${Math.round(stall * 1000)} ms`,
    );
  },
);

t.test('figures', async (t) => {
  t.comment(`worst /healthcheck: ${Math.round(worstHealthMs())} ms`);
  t.ok(server.alive());
});
