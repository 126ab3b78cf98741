import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { GraphQLError, specifiedRules, type ValidationRule, validate } from 'graphql';
// Renamed: it is graphql-ws's server for a `ws` server, not a React hook (which the linter takes `use…` for).
import { useServer as serveGraphQLWs } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { bearerToken, type Tokens, type Viewer } from './auth.ts';
import type { Catalog } from './catalog.ts';
import { type DataContext, operationLimits, schema } from './schema.ts';

/**
 * Subscriptions over WebSocket at the GraphQL path, `graphql-transport-ws` subprotocol (spec
 * section 7), served by graphql-ws's own server: it validates every client message (bad ones close
 * with 4400), refuses other subprotocols (4406), and closes with 4403 Forbidden when `onConnect`
 * turns a connection down. The token rides in the connection_init payload, because a browser cannot
 * set headers on a socket.
 *
 * It takes only the upgrades for its own path and leaves every other one to whoever else listens
 * (Vite's HMR socket in development), which is why it is not a Fastify route: @fastify/websocket
 * would route every upgrade on the server through Fastify.
 */

/** One socket message: a subscribe is a few hundred bytes. */
const MAX_PAYLOAD = 16 * 1024;
/** Subscriptions one socket may hold: a page has a handful of live prices, not hundreds. */
const MAX_SUBSCRIPTIONS_PER_SOCKET = 100;

/**
 * Open sockets the server holds at most, and per client address: a page holds one; a client that
 * opens dozens is not a visitor, and each socket holds memory until it closes.
 */
export const SOCKET_LIMITS = { total: 2_000, perClient: 20 };

type SocketExtra = { viewer?: Viewer | null };

/** The open connections of each HTTP server, for the subscriptions gauge. */
const connections = new WeakMap<Server, Set<{ subscriptions: Record<string, unknown> }>>();

/** GraphQL subscriptions open now over the sockets `server` accepted. */
export function openSubscriptions(server: Server): number {
  let open = 0;
  for (const connection of connections.get(server) ?? []) open += Object.keys(connection.subscriptions).length;
  return open;
}

export function attachGraphQLSocket(
  server: Server,
  options: {
    path: string;
    catalog: Catalog;
    tokens: Tokens;
    rules: readonly ValidationRule[];
    limits?: { total: number; perClient: number };
  },
): () => Promise<void> {
  const { catalog, tokens } = options;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD });
  const open = connections.get(server) ?? new Set();
  connections.set(server, open);
  const graphqlWs = serveGraphQLWs<Record<string, unknown> | undefined, SocketExtra>(
    {
      schema,
      // The HTTP path's rules for every operation on a socket too: the limits alone first, as there.
      validate: (schema, document) => {
        const refused = validate(schema, document, [operationLimits]);
        return refused.length > 0 ? refused : validate(schema, document, [...specifiedRules, ...options.rules]);
      },
      onConnect: (ctx) => {
        const token = bearerToken(authorizationOf(ctx.connectionParams));
        if (token === undefined) {
          ctx.extra.viewer = null;
        } else {
          const viewer = token && tokens.verify(token);
          if (!viewer) return false;
          ctx.extra.viewer = viewer;
        }
        open.add(ctx);
        return true;
      },
      onClose: (ctx) => {
        open.delete(ctx);
      },
      onSubscribe: (ctx) => {
        // The subscription being started is already in the list: more than the cap means one too many.
        if (Object.keys(ctx.subscriptions).length > MAX_SUBSCRIPTIONS_PER_SOCKET) {
          return [new GraphQLError(`At most ${MAX_SUBSCRIPTIONS_PER_SOCKET} subscriptions per connection`)];
        }
      },
      context: (ctx): DataContext => ({ catalog, viewer: ctx.extra.viewer ?? null }),
    },
    wss,
  );

  const limits = options.limits ?? SOCKET_LIMITS;
  const perClient = new Map<string, number>();
  let total = 0;
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== options.path) {
      // Not ours. With nobody else listening, refuse it the way Node does when no one listens.
      if (server.listenerCount('upgrade') === 1) socket.destroy();
      return;
    }
    const client = request.socket.remoteAddress ?? '';
    const held = perClient.get(client) ?? 0;
    if (total >= limits.total || held >= limits.perClient) {
      socket.end(
        'HTTP/1.1 503 Service Unavailable\r\nRetry-After: 10\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
      );
      return;
    }
    total++;
    perClient.set(client, held + 1);
    socket.once('close', () => {
      total--;
      const left = (perClient.get(client) ?? 1) - 1;
      if (left > 0) perClient.set(client, left);
      else perClient.delete(client);
    });
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  };
  server.on('upgrade', onUpgrade);
  return async () => {
    server.off('upgrade', onUpgrade);
    // Clients hear 1001 Going Away, which graphql-ws retries: a restarted server takes them back.
    await graphqlWs.dispose();
  };
}

/** `Authorization` in connection params, whatever its case (spec section 7: the same header as HTTP). */
function authorizationOf(params: Record<string, unknown> | undefined): unknown {
  if (!params) return undefined;
  const name = Object.keys(params).find((k) => k.toLowerCase() === 'authorization');
  return name === undefined ? undefined : params[name];
}
