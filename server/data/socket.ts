import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  type DocumentNode,
  GraphQLError,
  getOperationAST,
  OperationTypeNode,
  parse,
  specifiedRules,
  type ValidationRule,
  validate,
} from 'graphql';
// Renamed: it is graphql-ws's server for a `ws` server, not a React hook (which the linter takes `use…` for).
import { useServer as serveGraphQLWs } from 'graphql-ws/use/ws';
import { type WebSocket, WebSocketServer } from 'ws';
import { hostHeaderCount } from '../http/host-headers.ts';
import { bearerToken, type Tokens, type Viewer } from './auth.ts';
import type { Catalog } from './catalog.ts';
import { documentLimits, PARSE_OPTIONS, querySourceError } from './document-limits.ts';
import { responseTooLargeError } from './response-size.ts';
import { type DataContext, operationLimits, schema } from './schema.ts';
import {
  refuseUpgrade,
  type UpgradePolicy,
  type UpgradeRefusalReason,
  upgradeRefusalResponse,
} from './upgrade-policy.ts';

/**
 * Subscriptions over WebSocket at the GraphQL path, `graphql-transport-ws` subprotocol, served by
 * graphql-ws's own server: it validates every client message (bad ones close
 * with 4400), refuses other subprotocols (4406), and closes with 4403 Forbidden when `onConnect`
 * turns a connection down. The token rides in the connection_init payload, because a browser cannot
 * set headers on a socket.
 *
 * It takes only the upgrades for its own path and leaves every other one to whoever else listens
 * (Vite's HMR socket in development), which is why it is not a Fastify route: @fastify/websocket
 * would route every upgrade on the server through Fastify. The upgrade policy (upgrade-policy.ts)
 * stands in for the Fastify hooks it skips.
 */

/** One socket message: a subscribe is a few hundred bytes. */
export const SOCKET_MAX_PAYLOAD = 16 * 1024;
/** Subscriptions one socket may hold: a page has a handful of live prices, not hundreds. */
const MAX_SUBSCRIPTIONS_PER_SOCKET = 100;
/** How long a socket closed for a slow reader may take to flush its close frame before it is cut. */
const CLOSE_GRACE_MS = 5_000;

export interface SocketLimits {
  /** Open sockets the server holds at most: each holds memory until it closes. */
  total: number;
  /** Open sockets per client address: a page holds one; a client with dozens is not a visitor. */
  perClient: number;
  /** A socket with no subscription this long is closed; pings do not count as use. */
  idleMs: number;
  /** Operations one socket may have started and not yet been answered (queries a client does not read). */
  inFlight: number;
  /** Bytes queued for a client that does not read before its socket is closed. */
  bufferedBytes: number;
  /**
   * Messages one socket may send at once, then `messagesPerSecond`: every message is parsed, and
   * a subscribe also validated, on the event loop the pages share. A page sends a few; the burst
   * covers a socket resubscribing all of its (at most 100) subscriptions when it reconnects.
   */
  messageBurst: number;
  messagesPerSecond: number;
  /**
   * Subscriptions the server holds over all sockets: each holds about 13 KB of heap
   * (bench/socket-memory.ts), so the socket caps alone (2,000 × 100) would allow 2.5 GB.
   */
  subscriptions: number;
  /**
   * How long a refused upgrade's socket lives after its answer: long enough for the answer to reach
   * a client, short enough that refusals held open cannot pile up.
   */
  refusedGraceMs: number;
}

export const SOCKET_LIMITS: SocketLimits = {
  total: 2_000,
  perClient: 20,
  idleMs: 30_000,
  inFlight: 10,
  bufferedBytes: 1024 * 1024,
  messageBurst: 120,
  messagesPerSecond: 10,
  subscriptions: 20_000,
  refusedGraceMs: 2_000,
};

/**
 * How the server closes a socket on its own. 1000 for an idle socket: graphql-ws's client reconnects
 * after it only when it holds subscriptions again. 1008 (policy violation) for a reader too slow or
 * a sender too fast; graphql-ws's client reconnects after it with its back-off.
 */
export const SOCKET_CLOSE = {
  idle: { code: 1000, reason: 'Idle: no subscription' },
  slowReader: { code: 1008, reason: 'Too many unread messages' },
  tooManyMessages: { code: 1008, reason: 'Too many messages' },
} as const;

type CloseReason = (typeof SOCKET_CLOSE)[keyof typeof SOCKET_CLOSE];

type SocketExtra = { viewer?: Viewer | null; socket: WebSocket; request: IncomingMessage };
type Connection = { subscriptions: Record<string, unknown>; extra: Partial<SocketExtra> };

/** The open connections of each HTTP server, for the subscriptions gauge. */
const connections = new WeakMap<Server, Set<Connection>>();

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
    limits?: Partial<SocketLimits>;
    policy?: UpgradePolicy;
    /** The largest serialised result one operation may send. */
    maxResponseBytes: number;
    /** The client address an upgrade counts against (the proxy-aware one); the peer's when absent. */
    clientAddress?: (request: IncomingMessage) => string | undefined;
    /** Told of every refused upgrade (the refusals metric). */
    onRefused?: (reason: UpgradeRefusalReason) => void;
  },
): () => Promise<void> {
  const { catalog, tokens } = options;
  const limits = { ...SOCKET_LIMITS, ...options.limits };
  const underPressure = options.policy?.underPressure;
  const wss = new WebSocketServer({ noServer: true, maxPayload: SOCKET_MAX_PAYLOAD });
  const open = connections.get(server) ?? new Set();
  connections.set(server, open);
  const idle = idleWatch(limits.idleMs);
  /** Ids of each connection's queries and mutations still in flight. */
  const inFlight = new WeakMap<Connection, Set<string>>();
  const graphqlWs = serveGraphQLWs<Record<string, unknown> | undefined, SocketExtra>(
    {
      schema,
      // The HTTP path's rules for every operation on a socket too: the limits alone first, as there.
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
        idle.watch(ctx);
        return true;
      },
      onClose: (ctx) => {
        open.delete(ctx);
        idle.forget(ctx);
      },
      onSubscribe: (ctx, id, payload) => {
        const socket = ctx.extra.socket;
        // Closed for its messages or its reading: what it sent after that is dropped unread.
        if (socket.readyState !== socket.OPEN) return [];
        // Under pressure new operations are shed as HTTP requests are; those held keep running.
        if (underPressure?.()) {
          return [
            new GraphQLError('The server is busy. Please try again shortly.', { extensions: { code: 'SERVER_BUSY' } }),
          ];
        }
        idle.used(ctx);
        // A client that keeps sending but does not read would have its refusals queue up too.
        if (socket.bufferedAmount > limits.bufferedBytes) closeForPolicy(socket, SOCKET_CLOSE.slowReader);
        // Before it is parsed: its length, and nesting the parser would overflow the stack on.
        const refused = querySourceError(payload.query);
        if (refused) return [refused];
        // The operation being started is already in the list: more than the cap means one too many.
        const operations = Object.values(ctx.subscriptions);
        if (operations.length > MAX_SUBSCRIPTIONS_PER_SOCKET) {
          return [new GraphQLError(`At most ${MAX_SUBSCRIPTIONS_PER_SOCKET} subscriptions per connection`)];
        }
        // Parsed here, not by graphql-ws, as the kind of operation decides the caps below; the
        // arguments returned make graphql-ws skip its own parse and validation.
        const document = parseOperation(payload.query);
        if (document instanceof GraphQLError) return [document];
        const kind = getOperationAST(document, payload.operationName)?.operation;
        // Queries and mutations answered but not yet written count as in flight: a client that does
        // not read keeps them so. Subscriptions do not: they are capped above, and a page resubscribes
        // all of its own at once when it reconnects.
        const queries = inFlight.get(ctx) ?? new Set<string>();
        inFlight.set(ctx, queries);
        for (const held of queries) if (!(held in ctx.subscriptions)) queries.delete(held);
        if (kind !== OperationTypeNode.SUBSCRIPTION) {
          if (queries.size >= limits.inFlight) {
            return [
              new GraphQLError(
                `At most ${limits.inFlight} operations in flight per connection: read the answers first`,
                {
                  extensions: { code: 'TOO_MANY_IN_FLIGHT' },
                },
              ),
            ];
          }
          queries.add(id);
        } else if (catalog.watchers() >= limits.subscriptions) {
          return [
            new GraphQLError('The server holds as many subscriptions as it can; try again later', {
              extensions: { code: 'TOO_MANY_SUBSCRIPTIONS' },
            }),
          ];
        }
        // The HTTP path's rules for every operation on a socket too: the limits alone first, as there.
        const limited = validate(schema, document, [documentLimits, operationLimits]);
        if (limited.length > 0) return limited;
        const invalid = validate(schema, document, [...specifiedRules, ...options.rules]);
        if (invalid.length > 0) return invalid;
        return { schema, document, operationName: payload.operationName, variableValues: payload.variables };
      },
      onNext: (ctx, _id, _payload, _args, result) => {
        const socket = ctx.extra.socket;
        if (socket.bufferedAmount > limits.bufferedBytes) closeForPolicy(socket, SOCKET_CLOSE.slowReader);
        const bytes = Buffer.byteLength(JSON.stringify(result));
        if (bytes > options.maxResponseBytes) {
          return { errors: [responseTooLargeError(bytes, options.maxResponseBytes).toJSON()] };
        }
      },
      context: (ctx): DataContext => ({ catalog, viewer: ctx.extra.viewer ?? null }),
    },
    wss,
  );

  const perClient = new Map<string, number>();
  let total = 0;
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node takes its own error listener off a socket it hands to `upgrade`: without one, a client's
    // reset (ECONNRESET) would be an uncaught exception and end the process. A reset is no news.
    socket.on('error', () => {});
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== options.path) {
      // Not ours. With nobody else listening, refuse it the way Node does when no one listens.
      if (server.listenerCount('upgrade') === 1) socket.destroy();
      return;
    }
    const client = options.clientAddress?.(request) ?? request.socket.remoteAddress ?? '';
    const held = perClient.get(client) ?? 0;
    const refusal =
      refuseUpgrade(
        {
          host: request.headers.host,
          origin: request.headers.origin,
          hostHeaders: hostHeaderCount(request.rawHeaders),
        },
        options.policy ?? {},
      ) ??
      (total >= limits.total || held >= limits.perClient
        ? {
            status: 503 as const,
            reason: 'socket_cap' as const,
            message: 'Too many open sockets. Please try again shortly.',
          }
        : undefined);
    if (refusal) {
      options.onRefused?.(refusal.reason);
      // Answered, then closed: a client that never closes its side would otherwise hold the
      // socket (and its descriptor) for as long as it liked.
      socket.end(upgradeRefusalResponse(refusal, 10));
      const deadline = setTimeout(() => socket.destroy(), limits.refusedGraceMs).unref();
      socket.once('close', () => clearTimeout(deadline));
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
    wss.handleUpgrade(request, socket, head, (ws) => {
      // Before graphql-ws's own listener, which the connection event adds: it sees a message after this.
      limitMessages(ws, limits);
      wss.emit('connection', ws, request);
    });
  };
  server.on('upgrade', onUpgrade);
  return async () => {
    server.off('upgrade', onUpgrade);
    // Clients hear 1001 Going Away, which graphql-ws retries: a restarted server takes them back.
    await graphqlWs.dispose();
  };
}

/**
 * Closes the sockets that hold no subscription for `idleMs`. Checked once per period: a socket
 * that neither holds a subscription now nor started an operation during the last period is idle,
 * so one closes between one and two periods after its last use. Pings are not use.
 */
function idleWatch(idleMs: number) {
  const watched = new Map<Connection, { used: boolean; timer: NodeJS.Timeout }>();
  return {
    watch(connection: Connection) {
      const state = {
        used: false,
        timer: setInterval(() => {
          if (!state.used && Object.keys(connection.subscriptions).length === 0) {
            connection.extra.socket?.close(SOCKET_CLOSE.idle.code, SOCKET_CLOSE.idle.reason);
          }
          state.used = false;
        }, idleMs).unref(),
      };
      watched.set(connection, state);
    },
    used(connection: Connection) {
      const state = watched.get(connection);
      if (state) state.used = true;
    },
    forget(connection: Connection) {
      clearInterval(watched.get(connection)?.timer);
      watched.delete(connection);
    },
  };
}

/**
 * A message budget per socket (a token bucket): `messageBurst` at once, refilled at
 * `messagesPerSecond`. A socket past it is closed; what it sent meanwhile is dropped unparsed.
 */
function limitMessages(socket: WebSocket, limits: SocketLimits) {
  let budget = limits.messageBurst;
  let last = performance.now();
  socket.on('message', () => {
    const now = performance.now();
    budget = Math.min(limits.messageBurst, budget + ((now - last) / 1000) * limits.messagesPerSecond);
    last = now;
    if (budget >= 1) budget--;
    else closeForPolicy(socket, SOCKET_CLOSE.tooManyMessages);
  });
}

/**
 * Closes a socket the server will not serve on: a client that does not read would have the server
 * queue its messages without bound, one that sends too fast holds the event loop. The close frame
 * waits behind what is queued, so the socket is cut after a grace period.
 */
function closeForPolicy(socket: WebSocket, close: CloseReason) {
  if (socket.readyState !== socket.OPEN) return;
  socket.close(close.code, close.reason);
  setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref();
}

/** The operation's document, or its syntax error as a GraphQL error. */
function parseOperation(query: string): DocumentNode | GraphQLError {
  try {
    return parse(query, PARSE_OPTIONS);
  } catch (error) {
    return error instanceof GraphQLError ? error : new GraphQLError('Query refused: it does not parse');
  }
}

/** `Authorization` in connection params, whatever its case (the same header as HTTP). */
function authorizationOf(params: Record<string, unknown> | undefined): unknown {
  if (!params) return undefined;
  const name = Object.keys(params).find((k) => k.toLowerCase() === 'authorization');
  return name === undefined ? undefined : params[name];
}
