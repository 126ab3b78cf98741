import { type ChildProcess, fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { SUBSCRIPTION, startDataServer } from './data-server.ts';

/**
 * Subscription fan-out: how many live-price clients one server process
 * holds, and how many `productUpdated` messages per second it delivers to them, on one core. The
 * backend runs in this process (one JavaScript thread); the clients run in child processes, so the
 * CPU and heap figures are the server's alone. Prices change as fast as the server can push them;
 * the catalog keeps only the latest change per slow reader, so the count is of messages delivered.
 *
 *   node --import tsx bench/subscriptions.ts [--clients 2000] [--seconds 5]   (--expose-gc: steadier heap figure)
 *
 * Prints one line.
 */

type FromClients = { type: 'ready'; connected: number } | { type: 'count'; delivered: number };

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '5' },
    // Internal: this process is one of the client processes, connecting to this URL.
    'client-of': { type: 'string' },
  },
});
if (values['client-of']) await holdClients(values['client-of'], Number(values.clients));
else await measure(Number(values.clients), Number(values.seconds));

async function measure(clients: number, seconds: number): Promise<void> {
  const { app, url, catalog } = await startDataServer(clients);

  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const processes = Math.max(1, Math.min(4, availableParallelism() - 1));
  const children = Array.from({ length: processes }, (_, i) => {
    const share = Math.floor(clients / processes) + (i < clients % processes ? 1 : 0);
    return fork(fileURLToPath(import.meta.url), ['--client-of', url, '--clients', `${share}`], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
  });
  const connected = (await Promise.all(children.map((c) => reply(c, 'ready')))).reduce((a, b) => a + b, 0);
  const deadline = Date.now() + 10_000;
  while (catalog.watchers() < connected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const held = catalog.watchers();
  global.gc?.();
  const heldMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;

  // Change the price as often as the event loop lets us; the clients count what reaches them.
  let running = true;
  let changes = 0;
  const change = () => {
    if (!running) return;
    changes++;
    catalog.update({ id: '4711', locale: 'en-GB', amount: 700 + (changes % 100) });
    setImmediate(change);
  };
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  change();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const counts = Promise.all(children.map((c) => reply(c, 'count')));
  for (const c of children) c.send('count');
  const delivered = (await counts).reduce((a, b) => a + b, 0);
  const elapsed = (performance.now() - started) / 1000;
  running = false;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuShare = (cpu.user + cpu.system) / 1e6 / elapsed;

  for (const c of children) c.kill();
  await app.close();
  const perSecond = Math.round(delivered / elapsed);
  const n = (x: number) => Math.round(x).toLocaleString('en-GB');
  console.log(
    `subscriptions: ${n(held)} of ${n(clients)} clients held (server heap +${heldMb.toFixed(1)} MB, ${((heldMb * 1024) / Math.max(held, 1)).toFixed(1)} KB each), ` +
      `${n(perSecond)} messages/s delivered at ${(cpuShare * 100).toFixed(0)}% of one core (${n(perSecond / cpuShare)} per server CPU-second)`,
  );
}

/** The next message of this type from a client process: how many it connected, or delivered. */
function reply(child: ChildProcess, type: FromClients['type']): Promise<number> {
  return new Promise((resolve) => {
    const listener = (m: FromClients) => {
      if (m.type !== type) return;
      child.off('message', listener);
      resolve(m.type === 'ready' ? m.connected : m.delivered);
    };
    child.on('message', listener);
  });
}

/** A client process: opens its share of clients, one live-price subscription each, and counts deliveries. */
async function holdClients(url: string, clients: number): Promise<void> {
  let delivered = 0;
  let failed = 0;
  const sink = { next: () => void delivered++, error: () => void failed++, complete: () => {} };
  for (let i = 0; i < clients; i++) {
    const client = createClient({ url, webSocketImpl: WebSocket, retryAttempts: 0, onNonLazyError: () => {} });
    client.subscribe({ query: SUBSCRIPTION }, sink);
    // Open in small batches so the server's accept queue is not what is being measured.
    if (i % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  process.send?.({ type: 'ready', connected: clients - failed } satisfies FromClients);
  process.on('message', () => process.send?.({ type: 'count', delivered } satisfies FromClients));
}
