import fc from 'fast-check';
import { parse, specifiedRules, validate } from 'graphql';
import t from 'tap';
import WebSocket from 'ws';
import { until } from '../../test/until.ts';
import { documentLimits, PARSE_OPTIONS, querySourceError } from './document-limits.ts';
import { operationLimits, schema } from './schema.ts';
import { SOCKET_MAX_PAYLOAD } from './socket.ts';
import { graphqlDocument } from './test-documents.ts';
import { startDataServer } from './test-server.ts';

/**
 * Property: no GraphQL document, however built (fragments spreading fragments, aliases, directives,
 * nesting, comments ended by any line terminator, long default values, garbage), makes the backend
 * answer 5xx, leak an internal error, crash or take long, over HTTP POST or the socket.
 *
 * Seeded and short for `npm test`; `FUZZ_RUNS=5000 npx tap --disable-coverage --timeout=3600
 * server/data/document-fuzz.test.ts` runs longer (`FUZZ_SEED` picks another seed).
 */

const RUNS = Number(process.env.FUZZ_RUNS) || 40;
const SEED = Number(process.env.FUZZ_SEED) || 32;
/**
 * CPU time this process may spend on one document (server and client share it): far above what any
 * document within the bounds takes (tens of ms on a loaded machine), far below what an unbounded
 * walk took (12 s for 770 bytes). CPU time, not wall-clock: other processes' load does not count.
 */
const SLOW_MS = 1_000;

/** CPU milliseconds this process spent since `since` (from `process.cpuUsage()`). */
function cpuMs(since: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
}
/** What an answer must never say: an internal fault shown to the client. */
const INTERNAL = /call stack|is not (a function|iterable)|Cannot read propert|Internal server error/i;

t.test('the checks before and during validation stay fast on any document', async (t) => {
  let slowest = 0;
  fc.assert(
    fc.property(graphqlDocument, (source) => {
      const started = process.cpuUsage();
      if (querySourceError(source)) return;
      let document: ReturnType<typeof parse>;
      try {
        document = parse(source, PARSE_OPTIONS);
      } catch {
        return;
      }
      const limited = validate(schema, document, [documentLimits, operationLimits]);
      if (limited.length === 0) validate(schema, document, specifiedRules);
      const took = cpuMs(started);
      slowest = Math.max(slowest, took);
      return took < SLOW_MS;
    }),
    { seed: SEED, numRuns: RUNS * 10 },
  );
  t.comment(`${RUNS * 10} documents checked in-process, slowest ${slowest.toFixed(1)} ms of CPU`);
});

t.test('over HTTP and the socket, every document gets a clean 200 or 4xx, promptly', async (t) => {
  const server = await startDataServer(t, { socketLimits: { messageBurst: 1e9, messagesPerSecond: 1e9 } });
  const socket = new WebSocket(server.wsUrl, 'graphql-transport-ws');
  t.teardown(() => socket.terminate());
  // biome-ignore lint/suspicious/noExplicitAny: protocol messages are read by path
  const answers = new Map<string, any>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data));
    if (message.id && !answers.has(message.id)) answers.set(message.id, message);
    if (message.type === 'connection_ack') answers.set('ack', message);
  });
  await new Promise((resolve) => socket.once('open', resolve));
  socket.send(JSON.stringify({ type: 'connection_init' }));
  await until(() => answers.has('ack'), { what: 'the ack' });

  let slowest = 0;
  let sent = 0;
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(graphqlDocument, async (query) => {
      const started = process.cpuUsage();
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
      const text = await response.text();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (![200, 400, 413].includes(response.status) || INTERNAL.test(text)) {
        throw new Error(`HTTP ${response.status}: ${text.slice(0, 300)}`);
      }
      const message = JSON.stringify({ id: String(sent + 1), type: 'subscribe', payload: { query } });
      // A larger frame closes the socket (ws's maxPayload, tested with the socket's guards).
      if (Buffer.byteLength(message) > SOCKET_MAX_PAYLOAD) return;
      const id = String(++sent);
      socket.send(message);
      const answer = await until(() => answers.get(id), { what: `socket answer ${id}`, timeout: 10_000 });
      if (INTERNAL.test(JSON.stringify(answer))) throw new Error(`socket: ${JSON.stringify(answer).slice(0, 300)}`);
      const took = cpuMs(started);
      slowest = Math.max(slowest, took);
      if (took > SLOW_MS) throw new Error(`took ${Math.round(took)} ms of CPU`);
    }),
    { seed: SEED, numRuns: RUNS },
  );
  t.equal(socket.readyState, WebSocket.OPEN, 'the socket is still open');
  const alive = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ __typename }' }),
  });
  t.equal(alive.status, 200, 'the server still answers');
  t.comment(
    `${RUNS} documents over HTTP and the socket, slowest ${slowest.toFixed(0)} ms of CPU, statuses ${[...statuses]}`,
  );
});
