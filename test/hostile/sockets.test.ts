import { Worker } from 'node:worker_threads';
import t, { type Test } from 'tap';
import { hostileCase, worstHealthMs } from './attack.ts';
import { startProductionServer } from './production-server.ts';
import type { FloodOrder, FloodReport } from './socket-flood.ts';

/**
 * The socket findings of the outside attack on issue 32's guards, against the production build:
 * messages queued behind a budget close flooding the log, and many sockets from many addresses,
 * each within its own limits, holding the event loop together. Scaled down from the attack
 * (3 × 20 × 5,000 messages; 10 × 20 × 119 subscribes) to what a test machine drives in seconds.
 */
const server = await startProductionServer(t);
const { port } = server;

/** Runs the flood in a worker thread; resolves with its report once every subscribe is answered or refused. */
function flood(t: Test, order: Omit<FloodOrder, 'port'>): Promise<FloodReport> {
  const worker = new Worker(new URL('./socket-flood.ts', import.meta.url), { workerData: { port, ...order } });
  t.teardown(() => worker.terminate());
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

const logBytes = () => server.logs.reduce((sum, line) => sum + line.length + 1, 0);

await hostileCase(
  t,
  server,
  'finding F1: messages sent past the budget never reach the protocol nor the log',
  async (t) => {
    const before = logBytes();
    const report = await flood(t, { addresses: 3, perAddress: 10, messages: 1_000, query: '{__typename}' });
    t.same([...new Set(report.closes)], [1008], 'each closed for its messages (1008)');
    const written = logBytes() - before;
    t.comment(`log written during the flood: ${written} bytes`);
    t.ok(written < 64 * 1024, `the log grew by ${written} bytes, not by a line per message`);
    t.notOk(
      server.logs.some((line) => /Invalid return value|Internal error occurred/.test(line)),
      'no protocol failures logged',
    );
  },
);

await hostileCase(t, server, 'finding F2: many sockets within every limit do not hold the event loop', async (t) => {
  const query = `query{${Array.from({ length: 20 }, (_, i) => `a${i}:__typename`).join(' ')} ${'__typename '.repeat(40)}}`;
  // Each subscribe is answered (result, refusal) or its socket closed.
  const report = await flood(t, { addresses: 5, perAddress: 20, messages: 119, query });
  t.comment(`${report.answers} answers to ${100 * 119} subscribes`);
  const answered = report.answers;
  t.ok(answered > 0, 'operations were served meanwhile');
});

t.test('figures', async (t) => {
  t.comment(`worst /healthcheck: ${Math.round(worstHealthMs())} ms; log ${logBytes()} bytes`);
  t.ok(server.alive());
});
