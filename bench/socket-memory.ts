import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { SUBSCRIPTION, startDataServer } from './data-server.ts';

/**
 * Memory the server holds per open socket and per subscription: `--sockets` sockets are opened
 * (connection_init acknowledged, nothing else), then each takes `--subscriptions` live-price
 * subscriptions. The clients run in a child process, so the figures are the server's alone; the
 * socket caps are lifted for the measure.
 *
 *   node --expose-gc --import tsx bench/socket-memory.ts [--sockets 200] [--subscriptions 99] [--ids 1]
 *
 * `--ids 20`: each subscription watches 20 products, as the outside attack's did.
 *
 * Prints one line.
 */

const { values } = parseArgs({
  options: {
    sockets: { type: 'string', default: '200' },
    subscriptions: { type: 'string', default: '99' },
    ids: { type: 'string', default: '1' },
    // Internal: this process holds the clients, connecting to this URL.
    'client-of': { type: 'string' },
  },
});
const ids = Number(values.ids);
const query =
  ids === 1
    ? SUBSCRIPTION
    : SUBSCRIPTION.replace('["4711"]', JSON.stringify(Array.from({ length: ids }, (_, i) => String(4700 + i))));
if (values['client-of']) await holdClients(values['client-of'], Number(values.sockets));
else await measure(Number(values.sockets), Number(values.subscriptions));

async function measure(sockets: number, subscriptions: number): Promise<void> {
  if (!global.gc) throw new Error('Run with --expose-gc: the figures are heap after a full collection');
  // Sockets held without a subscription stay open for the whole measurement.
  const { app, url, catalog } = await startDataServer(sockets, { idleMs: 10 * 60_000 });
  const child = fork(
    fileURLToPath(import.meta.url),
    ['--client-of', url, '--sockets', `${sockets}`, '--ids', `${ids}`],
    {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    },
  );
  const sample = () => {
    global.gc?.();
    const { heapUsed, rss } = process.memoryUsage();
    return { heapUsed, rss };
  };
  await new Promise((resolve) => setTimeout(resolve, 200));
  const before = sample();
  await ask(child, { type: 'open' });
  const opened = sample();
  await ask(child, { type: 'subscribe', count: subscriptions });
  while (catalog.watchers() < sockets * subscriptions) await new Promise((resolve) => setTimeout(resolve, 20));
  const subscribed = sample();
  child.kill();
  await app.close();

  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const perSocket = (key: 'heapUsed' | 'rss') => (opened[key] - before[key]) / sockets;
  const perSubscription = (key: 'heapUsed' | 'rss') => (subscribed[key] - opened[key]) / (sockets * subscriptions);
  console.log(
    `socket memory: ${sockets} sockets × ${subscriptions} subscriptions; per idle socket ${kb(perSocket('heapUsed'))} heap, ` +
      `${kb(perSocket('rss'))} RSS; per subscription ${kb(perSubscription('heapUsed'))} heap, ${kb(perSubscription('rss'))} RSS; ` +
      `all held: ${kb(subscribed.heapUsed - before.heapUsed)} heap, ${kb(subscribed.rss - before.rss)} RSS`,
  );
}

/** Sends `message` to the client process and waits for its 'done'. */
function ask(child: ChildProcess, message: object): Promise<void> {
  return new Promise((resolve) => {
    child.once('message', () => resolve());
    child.send(message);
  });
}

async function holdClients(url: string, count: number): Promise<void> {
  const sockets: WebSocket[] = [];
  process.on('message', async (message: { type: 'open' } | { type: 'subscribe'; count: number }) => {
    if (message.type === 'open') {
      for (let i = 0; i < count; i++) {
        const socket = new WebSocket(url, 'graphql-transport-ws');
        await new Promise((resolve) => socket.once('open', resolve));
        socket.send(JSON.stringify({ type: 'connection_init' }));
        await new Promise((resolve) => socket.once('message', resolve));
        sockets.push(socket);
      }
    } else {
      for (const socket of sockets) {
        for (let id = 1; id <= message.count; id++) {
          socket.send(JSON.stringify({ id: String(id), type: 'subscribe', payload: { query } }));
        }
      }
    }
    process.send?.('done');
  });
}
