import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { createClient } from 'graphql-ws';
import type { Test } from 'tap';
import WebSocket from 'ws';
import { CATALOG_WRITE, createTokens, type Tokens } from './auth.ts';
import { type Catalog, loadCatalog } from './catalog.ts';
import { type DataPluginOptions, dataPlugin } from './plugin.ts';

/** The secret every data-layer test signs with. */
export const TEST_SECRET = 'test-secret-that-is-long-enough-0123456789';

export interface DataServer {
  app: FastifyInstance;
  /** `http://127.0.0.1:{port}/graphql` */
  url: string;
  wsUrl: string;
  catalog: Catalog;
  tokens: Tokens;
  /** A token that may change prices. */
  writerToken: string;
  /** Cuts every open socket at the TCP level, as a network drop or a crashed proxy would. */
  dropSockets(): void;
  /** Upgrade requests seen so far (one per connection attempt). */
  upgrades(): number;
}

/**
 * The embedded backend alone on a real port, with the demo catalog and no demo changes, for the
 * server and client tests of the data layer. Closed by the test's teardown.
 */
export async function startDataServer(
  t: Test,
  options: Omit<DataPluginOptions, 'catalog' | 'tokenSecret'> = {},
  /** Registers what the plugin runs next to (load shedding) before the plugin itself. */
  before?: (app: FastifyInstance) => PromiseLike<unknown>,
): Promise<DataServer> {
  const catalog = await loadCatalog('content');
  const app = Fastify();
  await before?.(app);
  await app.register(dataPlugin, { catalog, tokenSecret: TEST_SECRET, demoChangeMs: 0, ...options });
  const sockets = new Set<Socket>();
  let upgrades = 0;
  app.server.on('upgrade', (_req, socket: Socket) => {
    upgrades++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  const { port } = app.server.address() as { port: number };
  const tokens = createTokens(TEST_SECRET);
  return {
    app,
    url: `http://127.0.0.1:${port}/graphql`,
    wsUrl: `ws://127.0.0.1:${port}/graphql`,
    catalog,
    tokens,
    writerToken: tokens.sign({ sub: 'test', roles: [CATALOG_WRITE] }),
    dropSockets: () => {
      for (const socket of sockets) socket.destroy();
    },
    upgrades: () => upgrades,
  };
}

/** The first answer to one operation over the socket: a result, or the error list. */
// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field in the tests
export async function overSocket(t: Test, server: DataServer, query: string): Promise<Record<string, any>> {
  const client = createClient({ url: server.wsUrl, webSocketImpl: WebSocket, retryAttempts: 0 });
  t.teardown(() => client.dispose());
  try {
    return (await client.iterate({ query }).next()).value as Record<string, unknown>;
  } catch (errors) {
    return { errors };
  }
}
