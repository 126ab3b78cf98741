import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { NoSchemaIntrospectionCustomRule, type ValidationRule, validate } from 'graphql';
import mercurius from 'mercurius';
import { limitOf } from '../http/rate-limits.ts';
import { bearerToken, createTokens, type Viewer } from './auth.ts';
import { type Catalog, loadCatalog } from './catalog.ts';
import { startDemoChanges } from './demo-changer.ts';
import { documentLimits, PARSE_OPTIONS, querySourceError } from './document-limits.ts';
import { summarisingErrorFormatter } from './error-log.ts';
import { guardGraphQLHttp } from './http-guards.ts';
import { MAX_RESPONSE_BYTES } from './response-size.ts';
import { type DataContext, operationLimits, schema } from './schema.ts';
import { attachGraphQLSocket, type SocketLimits } from './socket.ts';
import type { UpgradePolicy, UpgradeRefusalReason } from './upgrade-policy.ts';

/**
 * The embedded data backend: GraphQL at `/graphql` on the site's own
 * Fastify instance, queries by HTTP POST (mercurius) and subscriptions over WebSocket with the
 * `graphql-transport-ws` subprotocol on the same path (graphql-ws's server, socket.ts; see
 * docs/decisions/0006-graphql-server.md for why the two libraries share the path).
 */

export interface DataPluginOptions {
  /** Content folder whose page templates seed the demo prices (the embedded store's CONTENT_DIR). */
  contentDir?: string;
  /** A catalog to serve instead of loading one; its owner can change prices directly (tests, bench). */
  catalog?: Catalog;
  /** HMAC secret for bearer tokens (GRAPHQL_TOKEN_SECRET). Without one, a random per-process secret. */
  tokenSecret?: string;
  /** How often the demo changes a price; 0 turns it off. */
  demoChangeMs?: number;
  /** Caps on sockets and what each may hold (tests use small ones); SOCKET_LIMITS otherwise. */
  socketLimits?: Partial<SocketLimits>;
  /** The largest serialised result one operation may send, over HTTP or the socket; MAX_RESPONSE_BYTES otherwise. */
  maxResponseBytes?: number;
  /** Which hosts and origins may open a socket (the app passes its storefronts and editor origins). */
  upgrade?: Omit<UpgradePolicy, 'underPressure'>;
  /** Answer schema introspection (`__schema`, `__type`): a development convenience, off in production. */
  introspection?: boolean;
  /** Relays the catalog's changes to and from other instances (the shared tier). */
  shareCatalog?: (catalog: Catalog) => Catalog;
  /** The client address a socket counts against: the app's proxy-aware one; the peer's when absent. */
  clientAddress?: (request: IncomingMessage) => string | undefined;
  /** Told of every refused upgrade, with why (the refusals metric). */
  onUpgradeRefused?: (reason: UpgradeRefusalReason) => void;
}

/** How the app configures the data layer: the embedded backend, unless `url` names another one. */
export interface DataOptions extends Omit<DataPluginOptions, 'contentDir'> {
  /** GRAPHQL_URL: the site uses that backend and does not serve its own. */
  url?: string;
}

/** CSP connect-src entries a backend elsewhere needs: its origin for POST and for the socket. */
export function dataConnectSources(url: string | undefined): string[] {
  if (!url) return [];
  const { origin, protocol, host } = new URL(url);
  return [origin, `${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}`];
}

export const GRAPHQL_PATH = '/graphql';
/** Queries are a few hundred bytes; anything near this is not a query we serve (answered 413). */
export const GRAPHQL_BODY_LIMIT = 16 * 1024;
export const DEMO_CHANGE_MS = 30_000;
/**
 * Documents mercurius keeps parsed and validated, and apart those it refused: two LRUs by count, each
 * holding up to twice this (quick-lru keeps the previous generation). A document at the bounds of
 * document-limits.ts holds ~110 KB, so ~28 MB at most; real ones hold a few KB. A document pushed
 * out costs its next sender one parse and validation, about a millisecond for the island queries.
 */
export const GRAPHQL_CACHE_DOCUMENTS = 64;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the data plugin from a valid bearer token; null for anonymous requests. */
    viewer: Viewer | null;
  }
}

export const dataPlugin: FastifyPluginAsync<DataPluginOptions> = async (app, options) => {
  if (!options.tokenSecret) {
    app.log.warn('GRAPHQL_TOKEN_SECRET is not set: data tokens are signed with a random secret until restart');
  }
  const tokens = createTokens(options.tokenSecret ?? randomBytes(32).toString('base64url'));
  const local =
    options.catalog ??
    (await loadCatalog(options.contentDir ?? 'content', (details) => app.log.warn(details, details.problem)));
  const catalog = options.shareCatalog ? options.shareCatalog(local) : local;
  const demoChangeMs = options.demoChangeMs ?? DEMO_CHANGE_MS;
  if (demoChangeMs > 0) {
    const stop = startDemoChanges(catalog, demoChangeMs);
    app.addHook('onClose', async () => stop());
  }

  app.decorateRequest('viewer', null);
  // HTTP: a token in the Authorization header, checked before mercurius parses anything.
  app.addHook('onRequest', async (request, reply) => {
    const token = bearerToken(request.headers.authorization);
    if (token === undefined) return;
    const viewer = token && tokens.verify(token);
    if (!viewer) return refuseToken(reply);
    request.viewer = viewer;
  });

  const rules: ValidationRule[] = options.introspection ? [] : [NoSchemaIntrospectionCustomRule];
  // Upgrades skip Fastify's hooks, @fastify/under-pressure's shedding among them: asked directly.
  const pressured = app as unknown as { isUnderPressure?: () => boolean };
  const underPressure = app.hasDecorator('isUnderPressure') ? () => pressured.isUnderPressure?.() ?? false : undefined;
  const maxResponseBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  const closeSockets = attachGraphQLSocket(app.server, {
    path: GRAPHQL_PATH,
    catalog,
    tokens,
    rules,
    limits: options.socketLimits,
    policy: { ...options.upgrade, underPressure },
    maxResponseBytes,
    log: app.log,
    ...(options.clientAddress ? { clientAddress: options.clientAddress } : {}),
    ...(options.onUpgradeRefused ? { onRefused: options.onUpgradeRefused } : {}),
  });
  // preClose: open sockets would keep the HTTP server from closing.
  app.addHook('preClose', closeSockets);

  guardGraphQLHttp(app, { maxResponseBytes });

  await app.register(mercurius, {
    schema,
    path: GRAPHQL_PATH,
    context: (request): DataContext => ({ catalog, viewer: request.viewer }),
    graphiql: false,
    validationRules: rules,
    cache: GRAPHQL_CACHE_DOCUMENTS,
    graphql: { parseOptions: PARSE_OPTIONS },
    errorFormatter: summarisingErrorFormatter(),
    additionalRouteOptions: {
      bodyLimit: GRAPHQL_BODY_LIMIT,
      // Prices are per locale, not per host: any storefront (or a test with no Host) may ask.
      config: { anyHost: true, ...limitOf(app, 'graphql') },
    },
  });
  // Before parsing: its length, JSON posing as an AST, and nesting the parser would overflow the stack on.
  app.graphql.addHook('preParsing', async (_schema, source) => {
    const refused = querySourceError(source);
    if (refused) throw Object.assign(new Error('Query refused'), { statusCode: 400, errors: [refused] });
  });
  // The limits first, alone: graphql-js's full validation is quadratic in repeated fields, so an
  // operation over the limits must be refused before it is paid for.
  app.graphql.addHook('preValidation', async (schema, document) => {
    const errors = validate(schema, document, [documentLimits, operationLimits]);
    if (errors.length > 0) throw Object.assign(new Error('Operation refused'), { statusCode: 400, errors });
  });
};

function refuseToken(reply: FastifyReply) {
  return reply
    .code(401)
    .header('www-authenticate', 'Bearer error="invalid_token"')
    .header('cache-control', 'no-store')
    .send({ data: null, errors: [{ message: 'Invalid token', extensions: { code: 'UNAUTHENTICATED' } }] });
}
