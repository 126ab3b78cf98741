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
import { type WebSocket, WebSocketServer } from 'ws';
import { hostHeaderCount } from '../http/host-headers.ts';
import { bearerToken, type Tokens, type Viewer } from './auth.ts';
import type { Catalog } from './catalog.ts';
import { documentLimits, PARSE_OPTIONS, querySourceError } from './document-limits.ts';
import { responseTooLargeError } from './response-size.ts';
import { type DataContext, operationLimits, schema } from './schema.ts';
import { addressSubscriptions, operationAdmission, socketPlaces, tokenBucket } from './socket-admission.ts';
import { type SocketLog, serveGraphQLOverSockets } from './socket-transport.ts';
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
/** How long a new socket may take to send `connection_init`: a page's client sends it at once. */
const CONNECTION_INIT_MS = 3_000;
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
   * The same over all sockets of one client address (its 20 sockets would otherwise have 20
   * budgets): two pages' worth of resubscribing at once (decision 0142).
   */
  addressMessageBurst: number;
  addressMessagesPerSecond: number;
  /**
   * Subscriptions the server holds over all sockets: each holds 4–6 KB of heap and 17–28 KB of RSS
   * (bench/socket-memory.ts), so the socket caps alone (2,000 × 100) would allow several GB.
   */
  subscriptions: number;
  /**
   * Subscriptions one client address may hold over all of its sockets: a page holds one per live
   * price, a household a few pages' worth. Well under `subscriptions`, so holding them all takes
   * a hundred addresses, not one client's 20 sockets (decision 0175).
   */
  subscriptionsPerClient: number;
  /**
   * How long a refused upgrade's socket lives after its answer: long enough for the answer to reach
   * a client, short enough that refusals held open cannot pile up.
   */
  refusedGraceMs: number;
  /**
   * Operations all sockets together may start in one turn of the event loop; the next ones wait for
   * later turns, the client addresses taking turns, so no number of sockets can hold the loop and a
   * flood does not starve a visitor (decisions 0142, 0174).
   */
  operationsPerTurn: number;
  /**
   * Operations waiting for their turn at most; past it one from the address with the most waiting
   * is refused SERVER_BUSY, unparsed.
   */
  operationsWaiting: number;
}

export const SOCKET_LIMITS: SocketLimits = {
  total: 2_000,
  perClient: 20,
  idleMs: 30_000,
  inFlight: 10,
  bufferedBytes: 1024 * 1024,
  messageBurst: 120,
  messagesPerSecond: 10,
  addressMessageBurst: 240,
  addressMessagesPerSecond: 20,
  subscriptions: 20_000,
  subscriptionsPerClient: 200,
  refusedGraceMs: 2_000,
  operationsPerTurn: 32,
  operationsWaiting: 1_000,
};

/**
 * How the server closes a socket on its own. 1000 for an idle socket: graphql-ws's client reconnects
 * after it only when it holds subscriptions again. 1008 (policy violation) for a reader too slow or
 * a sender too fast, 1013 (try again later) for the socket giving way to a newcomer at the socket
 * cap; graphql-ws's client reconnects after either with its back-off.
 */
export const SOCKET_CLOSE = {
  idle: { code: 1000, reason: 'Idle: no subscription' },
  slowReader: { code: 1008, reason: 'Too many unread messages' },
  tooManyMessages: { code: 1008, reason: 'Too many messages' },
  makeRoom: { code: 1013, reason: 'Try again later: the server is full' },
} as const;

type CloseReason = (typeof SOCKET_CLOSE)[keyof typeof SOCKET_CLOSE];

/**
 * Refusals a flood provokes by the thousand, made once: a GraphQLError captures a stack when it is
 * made, which cost more than the refusal itself (decision 0142). Each is only ever serialised.
 */
const REFUSED = {
  closing: [new GraphQLError('The socket is closing', { extensions: { code: 'SOCKET_CLOSING' } })],
  busy: [new GraphQLError('The server is busy. Please try again shortly.', { extensions: { code: 'SERVER_BUSY' } })],
  subscriptionsPerSocket: [new GraphQLError(`At most ${MAX_SUBSCRIPTIONS_PER_SOCKET} subscriptions per connection`)],
  subscriptionsPerClient: [
    new GraphQLError('Too many live updates from your address; close some pages and try again', {
      extensions: { code: 'TOO_MANY_SUBSCRIPTIONS' },
    }),
  ],
};

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
    /** Where socket failures are logged (trimmed, budgeted per client address). */
    log?: SocketLog;
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
  const clientOf = (request: IncomingMessage) => options.clientAddress?.(request) ?? request.socket.remoteAddress ?? '';
  const budgets = new WeakMap<WebSocket, () => boolean>();
  /** The connection of each socket whose `connection_init` was acknowledged. */
  const acknowledged = new WeakMap<WebSocket, Connection>();
  /** Each address's message budget over all of its sockets, while it holds one. */
  const addressBudgets = new Map<string, () => boolean>();
  const tooManyInFlight = [
    new GraphQLError(`At most ${limits.inFlight} operations in flight per connection: read the answers first`, {
      extensions: { code: 'TOO_MANY_IN_FLIGHT' },
    }),
  ];
  const admission = operationAdmission(limits.operationsPerTurn, limits.operationsWaiting);
  /**
   * Each document's validation errors, kept as long as the document is (the parse cache holds the
   * documents pages send): the schema and rules never change, and validating the same subscribe
   * again was most of a socket flood's cost (decision 0179).
   */
  const validated = new WeakMap<DocumentNode, readonly GraphQLError[]>();
  const validationOf = (document: DocumentNode): readonly GraphQLError[] => {
    const known = validated.get(document);
    if (known) return known;
    // The HTTP path's rules for every operation on a socket too: the limits alone first, as there.
    const limited = validate(schema, document, [documentLimits, operationLimits]);
    const errors = limited.length > 0 ? limited : validate(schema, document, [...specifiedRules, ...options.rules]);
    validated.set(document, errors);
    return errors;
  };
  const clientSubscriptions = addressSubscriptions(limits.subscriptionsPerClient);
  const graphqlWs = serveGraphQLOverSockets<SocketExtra>(
    wss,
    {
      schema,
      // A socket that has not sent connection_init by then is closed (4408) and cut soon after.
      connectionInitWaitTimeout: CONNECTION_INIT_MS,
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
        acknowledged.set(ctx.extra.socket, ctx);
        return true;
      },
      onClose: (ctx) => {
        open.delete(ctx);
        idle.forget(ctx);
      },
      onSubscribe: async (ctx, id, payload) => {
        const socket = ctx.extra.socket;
        // Counted as it arrives, before it waits: the operation being started is already in the
        // list, and so would be every one sent after it by the time its turn comes.
        if (Object.keys(ctx.subscriptions).length > MAX_SUBSCRIPTIONS_PER_SOCKET) return REFUSED.subscriptionsPerSocket;
        // Its turn among every address's operations; past the line, shed as under pressure.
        const admitted = await admission(clientOf(ctx.extra.request));
        // Closed (for its reading, or by its client) while it waited: refused, unparsed.
        if (socket.readyState !== socket.OPEN) {
          return REFUSED.closing;
        }
        // Under pressure new operations are shed as HTTP requests are; those held keep running.
        if (!admitted || underPressure?.()) return REFUSED.busy;
        idle.used(ctx);
        // A client that keeps sending but does not read would have its refusals queue up too.
        if (socket.bufferedAmount > limits.bufferedBytes) closeForPolicy(socket, SOCKET_CLOSE.slowReader);
        // Before it is parsed: its length, and nesting the parser would overflow the stack on.
        const refused = querySourceError(payload.query);
        if (refused) return [refused];
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
          if (queries.size >= limits.inFlight) return tooManyInFlight;
          queries.add(id);
        } else if (!clientSubscriptions.take(clientOf(ctx.extra.request), ctx, id)) {
          return REFUSED.subscriptionsPerClient;
        } else if (catalog.watchers() >= limits.subscriptions) {
          return [
            new GraphQLError('The server holds as many subscriptions as it can; try again later', {
              extensions: { code: 'TOO_MANY_SUBSCRIPTIONS' },
            }),
          ];
        }
        const invalid = validationOf(document);
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
    {
      // Past its message budget or once closing, a message is dropped before graphql-ws parses it.
      admit: (socket) => {
        if (socket.readyState !== socket.OPEN) return false;
        if (budgets.get(socket)?.()) return true;
        closeForPolicy(socket, SOCKET_CLOSE.tooManyMessages);
        return false;
      },
      clientOf,
      ...(options.log ? { log: options.log } : {}),
    },
  );

  const places = socketPlaces<Duplex>(limits.total, limits.perClient);
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node takes its own error listener off a socket it hands to `upgrade`: without one, a client's
    // reset (ECONNRESET) would be an uncaught exception and end the process. A reset is no news.
    socket.on('error', () => {});
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== options.path) {
      // Not ours. With nobody else listening, refuse it the way Node does when no one listens.
      if (server.listenerCount('upgrade') === 1) socket.destroy();
      return;
    }
    const client = clientOf(request);
    let upgraded: WebSocket | undefined;
    const release = refuseUpgrade(
      {
        host: request.headers.host,
        origin: request.headers.origin,
        hostHeaders: hostHeaderCount(request.rawHeaders),
        httpVersion: request.httpVersion,
      },
      options.policy ?? {},
    ) ??
      // At the cap, a socket still connecting, idle or of the address holding the most gives way
      // (decision 0178), a live one by a draw (decision 0187).
      places.take(
        client,
        socket,
        () => {
          if (upgraded) closeForPolicy(upgraded, SOCKET_CLOSE.makeRoom);
          else socket.destroy();
        },
        () => {
          const connection = upgraded && acknowledged.get(upgraded);
          if (!connection) return 'connecting';
          return Object.keys(connection.subscriptions).length > 0 ? 'live' : 'idle';
        },
      ) ?? {
        status: 503 as const,
        reason: 'socket_cap' as const,
        message: 'Too many open sockets. Please try again shortly.',
      };
    if (typeof release !== 'function') {
      const refusal = release;
      options.onRefused?.(refusal.reason);
      // Answered, then closed: a client that never closes its side would otherwise hold the
      // socket (and its descriptor) for as long as it liked.
      socket.end(upgradeRefusalResponse(refusal, 10));
      const deadline = setTimeout(() => socket.destroy(), limits.refusedGraceMs).unref();
      socket.once('close', () => clearTimeout(deadline));
      return;
    }
    socket.once('close', () => {
      release();
      if (places.of(client) > 0) return;
      addressBudgets.delete(client);
      clientSubscriptions.forget(client);
    });
    let addressBudget = addressBudgets.get(client);
    if (!addressBudget) {
      addressBudget = tokenBucket(limits.addressMessageBurst, limits.addressMessagesPerSecond);
      addressBudgets.set(client, addressBudget);
    }
    const ownBudget = tokenBucket(limits.messageBurst, limits.messagesPerSecond);
    const shared = addressBudget;
    wss.handleUpgrade(request, socket, head, (ws) => {
      upgraded = ws;
      connectionOf.set(ws, socket);
      budgets.set(ws, () => ownBudget() && shared());
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

/** The TCP connection under each WebSocket. */
const connectionOf = new WeakMap<WebSocket, Duplex>();

/**
 * Closes a socket the server will not serve on: a client that does not read would have the server
 * queue its messages without bound, one that sends too fast holds the event loop. The close frame
 * waits behind what is queued, so the socket is cut after a grace period.
 */
function closeForPolicy(socket: WebSocket, close: CloseReason) {
  if (socket.readyState !== socket.OPEN) return;
  socket.close(close.code, close.reason);
  // Nothing it sends from now on is read: a flood costs no more unmasking and decoding.
  socket.pause();
  // Nor is anything sent after the close frame: the connection, ended, gives way first at the
  // connection cap instead of holding a place until the grace is up (decision 0193).
  connectionOf.get(socket)?.end();
  setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref();
}

/**
 * Documents parsed lately, by their text: the same subscription from every page holds one document
 * between all of them, not one each for as long as it lives (decision 0175). Bounded like
 * mercurius's cache on the HTTP path, and only short texts (a page's operations are a few hundred
 * bytes), so the cache holds little whatever is sent; a document is never changed once parsed.
 */
const parsed = new Map<string, DocumentNode>();
const PARSED_DOCUMENTS = 64;
const PARSED_TEXT_MAX = 2_048;

/** The operation's document, or its syntax error as a GraphQL error. */
export function parseOperation(query: string): DocumentNode | GraphQLError {
  const known = parsed.get(query);
  if (known) {
    parsed.delete(query);
    parsed.set(query, known);
    return known;
  }
  try {
    const document = parse(query, PARSE_OPTIONS);
    if (query.length > PARSED_TEXT_MAX) return document;
    parsed.set(query, document);
    if (parsed.size > PARSED_DOCUMENTS) parsed.delete(parsed.keys().next().value as string);
    return document;
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
