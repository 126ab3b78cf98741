import Fastify, { type FastifyInstance } from 'fastify';
import { loadCatalog } from '../server/data/catalog.ts';
import { dataPlugin } from '../server/data/plugin.ts';

/** The subscription every benchmark client holds: one product's price and availability. */
export const SUBSCRIPTION =
  'subscription { productUpdated(ids: ["4711"], locale: "en-GB") { id price { amount formatted } availability version } }';

/**
 * The data backend alone on a free port, for the socket benchmarks: the demo catalogue, no demo
 * price changes (the benchmark makes its own), and room for `sockets` sockets from one address
 * (every client connects from 127.0.0.1).
 */
export async function startDataServer(
  sockets: number,
  limits: { idleMs?: number } = {},
): Promise<{ app: FastifyInstance; url: string; catalog: Awaited<ReturnType<typeof loadCatalog>> }> {
  const catalog = await loadCatalog('content');
  const app = Fastify();
  await app.register(dataPlugin, {
    catalog,
    demoChangeMs: 0,
    tokenSecret: 'bench-secret-0123456789-0123456789',
    // One address's budgets and shares lifted too: every benchmark client is 127.0.0.1.
    socketLimits: {
      total: sockets + 1,
      perClient: sockets + 1,
      addressMessageBurst: (sockets + 1) * 120,
      subscriptionsPerClient: (sockets + 1) * 100,
      operationsWaiting: (sockets + 1) * 100,
      ...limits,
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return { app, url: `ws://127.0.0.1:${port}/graphql`, catalog };
}
