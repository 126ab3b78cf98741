import { existsSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import { join, resolve } from 'node:path';
import { constants as zlib } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyMiddie from '@fastify/middie';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions, LogController } from 'fastify';
import { createMessageCatalog } from '../client/i18n/messages.ts';
import { ConfigurationNotAvailable, type Site, type SitesConfig } from '../common/site.ts';
import { purgeOnChange } from './cdn/purge.ts';
import { loadSitesConfig } from './config/sites.ts';
import type { ContentService } from './content/service.ts';
import { createEmbeddedStore, type EmbeddedStore } from './content/store.ts';
import { type DataOptions, dataPlugin } from './data/plugin.ts';
import { openSubscriptions } from './data/socket.ts';
import type { UpgradeRefusalReason } from './data/upgrade-policy.ts';
import { answerInTurn } from './http/answers-in-turn.ts';
import { clientAddresses } from './http/client-address.ts';
import { type ConnectionCaps, capConnections, connectionCaps, socketCap } from './http/connection-caps.ts';
import { RATE_LIMITS, type RateLimits } from './http/rate-limits.ts';
import { secureResponses } from './http/security-headers.ts';
import { isStaticFile, serveFiles } from './http/static-files.ts';
import { type ImageOptions, startImages } from './images/index.ts';
import { imageSrcSet } from './images/srcset.ts';
import { instrumentContent } from './observability/content.ts';
import type { Metrics } from './observability/metrics.ts';
import { observability } from './observability/plugin.ts';
import { Readiness } from './observability/readiness.ts';
import { requestIdGenerator } from './observability/request-id.ts';
import { lazyChildLogger } from './observability/request-logger.ts';
import { type PressureOptions, shedUnderPressure } from './observability/shedding.ts';
import type { Tracing } from './observability/tracing.ts';
import { type PreviewConfig, readPreviewConfig } from './preview/config.ts';
import { type AssetManifest, loadAssetManifest } from './render/assets.ts';
import { sendError } from './render/error-page.ts';
import { HtmlCache } from './render/html-cache.ts';
import { buildRoutes } from './routes/builds.ts';
import { contentApiRoutes } from './routes/content-api.ts';
import { draftRoutes } from './routes/drafts.ts';
import { healthRoutes } from './routes/health.ts';
import { iconRoutes } from './routes/icons.ts';
import { imageRoutes } from './routes/images.ts';
import { pageRoutes } from './routes/pages.ts';
import { seoRoutes } from './routes/seo.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { withWorkbenchOrigins, workbenchRoutes } from './routes/workbench.ts';
import { localeOfUrl } from './routing/route.ts';
import { HOME_PAGE_ID } from './routing/route-shape.ts';
import { redisDraftStore } from './shared/draft-store.ts';
import { startSharedTier } from './shared/index.ts';
import { SharedRedis } from './shared/redis.ts';
import { createHostResolver } from './sites/resolve.ts';
import { resolveStorefronts } from './sites/storefront-hook.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The storefront this request is for; resolved from the Host header before any route runs. */
    site: Site;
  }
  interface FastifyContextConfig {
    /** Answers for any Host, without a storefront (health checks). */
    anyHost?: boolean;
    /** An orchestrator's probe: answered even under pressure, so a busy process is not taken for a dead one. */
    probe?: boolean;
  }
}

export interface ServerOptions {
  /** Path of the sites config, or the config itself. */
  sites: string | SitesConfig;
  contentDir: string;
  /** Another content service (the HTTP upstream); the embedded store when absent. */
  content?: ContentService;
  localesDir?: string;
  /** Built browser assets; their manifest decides script and stylesheet URLs. */
  clientDir?: string;
  /** A manifest to use instead of the one in clientDir (tests that do not build). */
  assets?: AssetManifest;
  publicDir?: string;
  forceHost?: string;
  /** Development conveniences: content watching, warnings for unknown components. */
  dev?: boolean;
  logger?: FastifyServerOptions['logger'];
  revalidateToken?: string;
  /** Contentstack webhooks' bearer secret; unset, every webhook call is refused. */
  webhookSecret?: string;
  /** Development only: Vite's middleware, mounted before every route (server/dev.ts). */
  devMiddleware?: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
  /** TCP connections held at most, in total and per client address (CONNECTIONS_MAX, CONNECTIONS_PER_ADDRESS). */
  connections?: Partial<ConnectionCaps>;
  /** Open WebSockets held at most (SOCKETS_MAX); a quarter of the connection cap when absent. */
  socketsMax?: number | undefined;
  /** Socket idle, whole-request and keep-alive limits; tests shorten them. */
  timeouts?: { connectionMs?: number; requestMs?: number; keepAliveMs?: number };
  /** Set false to render every request (the rendered-HTML cache is on by default). */
  htmlCache?: boolean;
  /** Fastify's trustProxy: which peers may set X-Forwarded-*. Off by default. */
  trustProxy?: string;
  /** The GraphQL data backend: the embedded one at /graphql, unless `data.url` names another. */
  data?: DataOptions;
  /** Overrides of the load-shedding thresholds (tests use tiny ones). */
  pressure?: PressureOptions;
  /** Log a line per request (Fastify's request logging); off keeps errors and warnings only. Default on. */
  requestLogging?: boolean;
  /** How long a rendered page is fresh in the HTML cache; then it is served stale while it re-renders. */
  htmlCacheTtlMs?: number;
  /** The HTML cache's clock (milliseconds); tests move their own. */
  htmlCacheNow?: () => number;
  /** Editor origins, stack and draft token; read from the environment (PREVIEW_*, EDITOR_ORIGINS) when absent. */
  preview?: PreviewConfig;
  /** The editor workbench at /__workbench (development tool); its origins (every storefront host on `port`) join the editor origins. */
  workbench?: { port: number };
  /** Prometheus metrics to record into (main.ts serves them on METRICS_PORT); absent, nothing is measured. */
  metrics?: Metrics;
  /** OpenTelemetry spans (main.ts starts them when OTEL_EXPORTER_OTLP_ENDPOINT is set). */
  tracing?: Tracing;
  /** REDIS_URL: rendered pages, content changes and price changes shared with every other instance. */
  redisUrl?: string;
  /** CDN_PURGE_URL (and CDN_PURGE_TOKEN): told the cache tags of every content change announced here. */
  cdnPurge?: { url: string; token?: string };
  /** Requests per minute per client on the limited routes; tests lower them. */
  rateLimits?: Partial<RateLimits>;
  /** The image route's disk cache, its bound, encoder line and source limits (IMAGE_CACHE_DIR, IMAGE_CACHE_MB). */
  images?: ImageOptions;
}

/** How often Node checks every connection against headersTimeout and requestTimeout. */
const CONNECTIONS_CHECK_MS = 1_000;

/** One render report to every reporter (metrics, tracing). */
function renderReporter(reporters: readonly Pick<Metrics, 'render'>[]): Metrics['render'] {
  return (mode, seconds) => {
    for (const reporter of reporters) reporter.render(mode, seconds);
  };
}

/** Builds the app with every plugin and route wired, ready for `inject()` or `listen()`. */
export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const dev = options.dev ?? false;
  /** The error page for requests the router refuses before any hook runs; set once the page deps exist. */
  const undecodable: {
    reply?: (status: number, host: string | undefined, url: string, reply: FastifyReply) => unknown;
  } = {};
  const app = Fastify({
    logger: options.logger ?? false,
    // Two log lines per request cost more than serving a cached page; off in production.
    ...(options.requestLogging === false ? { logController: new LogController({ disableRequestLogging: true }) } : {}),
    // A request's logger is made on its first line, not for every request.
    ...(options.logger ? { childLoggerFactory: lazyChildLogger } : {}),
    trustProxy: options.trustProxy || false,
    genReqId: requestIdGenerator(options.trustProxy),
    // Bounded requests and slow-client protection (security case 16).
    bodyLimit: 256 * 1024,
    connectionTimeout: options.timeouts?.connectionMs ?? 30_000,
    requestTimeout: options.timeouts?.requestMs ?? 30_000,
    keepAliveTimeout: options.timeouts?.keepAliveMs ?? 72_000,
    // Node enforces headersTimeout and requestTimeout only when it checks its connections, every
    // 30 s by default: slow headers lived about 40 s instead of 10.
    http: { connectionsCheckingInterval: CONNECTIONS_CHECK_MS },
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500 },
    // A URL the router cannot decode gets the site's 400 page, not the router's JSON echoing it back.
    frameworkErrors: (error, request, reply) => {
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
      return undecodable.reply?.(status, request.headers.host, request.raw.url ?? '/', reply);
    },
  });

  const sitesConfig =
    typeof options.sites === 'string' ? loadSitesConfig(options.sites) : { config: options.sites, warnings: [] };
  for (const warning of sitesConfig.warnings) app.log.warn(warning);
  const sites = sitesConfig.config;
  const hosts = createHostResolver(sites, options.forceHost);
  const addresses = clientAddresses(options.trustProxy);
  const caps = connectionCaps(options.connections);
  const socketsMax = socketCap(caps, options.socketsMax);
  const connections = capConnections(app.server, caps, {
    isTrustedProxy: addresses.isTrustedProxy,
    onRefused: (reason) => options.metrics?.connectionRefused(reason),
    onIdleClosed: () => options.metrics?.idleConnectionClosed(),
    onCut: (reason) => options.metrics?.connectionCut(reason),
    onAcceptError: (error) => app.log.error({ err: error }, 'A connection could not be accepted'),
  });
  // Before every other hook: a pipelined request waits for the answer before it (decision 0144), and
  // an upgrade pipelined behind answers is refused (decision 0203).
  answerInTurn(app, {
    onWait: () => options.metrics?.requestWaitedTurn(),
    onUpgradeRefused: () => options.metrics?.upgradeRefused('pipelined'),
    onUpgradeCut: () => options.metrics?.connectionCut('pipelined'),
  });

  const redis = options.redisUrl ? new SharedRedis(options.redisUrl, app.log) : undefined;
  const store: EmbeddedStore | undefined = options.content
    ? undefined
    : createEmbeddedStore({
        dir: options.contentDir,
        watch: dev,
        logger: app.log,
        ...(redis ? { drafts: redisDraftStore(redis) } : {}),
      });
  const { metrics, tracing } = options;
  const sourceName = options.content ? 'upstream' : 'embedded';
  metrics?.contentSource(sourceName);
  const reporters = [metrics, tracing].filter((r): r is Metrics | Tracing => r !== undefined);
  const source = options.content ?? (store as EmbeddedStore);
  const content = reporters.length > 0 ? instrumentContent(source, sourceName, reporters) : source;
  const messages = createMessageCatalog({
    dir: options.localesDir ?? 'locales',
    fallbackLocale: sites.fallbackLocale,
    log: app.log,
  });
  const clientDir = resolve(options.clientDir ?? 'dist/client');
  const assets = options.assets ?? loadAssetManifest(clientDir);
  if (options.cdnPurge)
    purgeOnChange(content.changes, { ...options.cdnPurge, hosts: sites.sites.map((s) => s.host), log: app.log });
  const pageTtlMs = options.htmlCacheTtlMs ?? (options.content ? 60_000 : 10 * 60_000);
  const shared = redis ? startSharedTier({ redis, changes: content.changes, pageTtlMs }) : undefined;
  const htmlCache =
    options.htmlCache === false
      ? undefined
      : new HtmlCache({
          maxEntries: 2000,
          ttlMs: pageTtlMs,
          ...(options.htmlCacheNow ? { now: options.htmlCacheNow } : {}),
          onLookup: metrics && ((result) => metrics.cacheLookup(result)),
          ...(shared ? { tier: shared.pages } : {}),
        });
  if (htmlCache) content.changes.subscribe(() => htmlCache.clear());
  let preview = options.preview ?? readPreviewConfig(); // live preview
  // Preview workbench: needs the embedded store and a draft token; it frames pages from their own origin.
  const workbench = options.workbench && store && preview.draftToken ? options.workbench : undefined;
  if (options.workbench && !workbench) app.log.warn('The workbench needs the embedded store and DRAFT_API_TOKEN: off');
  if (workbench) preview = withWorkbenchOrigins(preview, sites, workbench.port);
  const renders = reporters.length > 0 ? { render: renderReporter(reporters) } : undefined;
  const publicDir = resolve(options.publicDir ?? 'public');
  const images = await startImages(`${publicDir}/images`, options.images, app.log);
  // How long anything built from content is kept: a source that announces every change (the embedded
  // store) until it does; another may change without a word, so no longer than its own cache.
  const contentTtlMs = options.content ? 60_000 : 10 * 60_000;
  const deps = {
    contentTtlMs,
    sites,
    content,
    messages,
    assets,
    htmlCache,
    dev,
    preview,
    dataEndpoint: options.data?.url,
    renderTimes: renders,
    imageSrcSet: imageSrcSet(images.sources),
  };
  /** An error page speaks the language of its URL (its storefront's default without a prefix). */
  const inLanguageOf = (site: Site | null, url: string) =>
    site ? { locale: localeOfUrl(site, url), site } : { locale: sites.fallbackLocale };
  undecodable.reply = (status, host, url, reply) => {
    reply.headers(securityHeaders);
    const found = hosts.resolve(host);
    const site = 'site' in found ? found.site : null;
    const message = STATUS_CODES[status] ?? 'Bad Request';
    return sendError(reply, deps, { status, message, path: '', ...inLanguageOf(site, url) });
  };

  // Set before any route is registered: a plugin keeps the error handler it was registered under.
  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, 'Request failed');
    // Visitors get the status text, never the error's own message or stack; a missing request
    // context is named, as the spec's error catalogue has it.
    return sendError(reply, deps, {
      status,
      message:
        error instanceof ConfigurationNotAvailable
          ? 'Configuration not available'
          : (STATUS_CODES[status] ?? 'Internal Server Error'),
      path: '',
      ...inLanguageOf(request.site, request.raw.url ?? '/'),
    });
  });

  // Ready once the build is there and content answers (the home page of the first storefront).
  const home = sites.sites[0];
  const readiness = new Readiness({
    buildPresent: () => options.assets !== undefined || existsSync(join(clientDir, '.vite', 'manifest.json')),
    loadContent: async () => home && content.getPage(HOME_PAGE_ID, home.defaultLocale),
    ...(shared ? { shared: shared.state } : {}),
  });
  observability(app, { readiness, metrics, tracing });
  if (metrics) {
    metrics.subscriptionsOpen = () => openSubscriptions(app.server);
    metrics.connectionsOpen = connections.open;
  }

  // A client gets this long to send its headers (slowloris); the whole request within requestTimeout.
  app.server.headersTimeout = Math.min(10_000, options.timeouts?.requestMs ?? 30_000);
  const staticMiss = await shedUnderPressure(app, options.pressure, metrics);
  if (options.devMiddleware) {
    await app.register(fastifyMiddie);
    app.use(options.devMiddleware);
  }
  await app.register(fastifyCookie);
  // Limits only where a route asks (limitOf), counted in Redis across instances when it is there;
  // with Redis unreachable each request is let through rather than refused.
  app.decorate('rateLimits', { ...RATE_LIMITS, ...options.rateLimits });
  await app.register(fastifyRateLimit, {
    global: false,
    ...(shared ? { redis: shared.redis, nameSpace: 'vitrine:rate:', skipOnError: true } : {}),
  });
  const securityHeaders = await secureResponses(app, {
    viteClient: Boolean(options.devMiddleware),
    dataUrl: options.data?.url,
  });
  await app.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    threshold: 1024,
    // Compressed on every request: quality 4 makes the bytes of gzip's default at 60 % of quality 5's
    // CPU (5 saves 5 % of the bytes; docs/decisions/0171-dynamic-brotli-quality-4.md).
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
  });
  await serveFiles(app, { clientDir, publicDir });
  app.decorateRequest('site', null as unknown as Site);
  resolveStorefronts(app, {
    hosts,
    trustProxy: Boolean(options.trustProxy),
    dev,
    refuse: (reply, error) =>
      sendError(reply, deps, { status: error.status, message: error.message, path: '', locale: sites.fallbackLocale }),
  });

  // A missing static file gets the lean miss (shed under pressure); anything else the error page.
  app.setNotFoundHandler((request, reply) =>
    isStaticFile(request.raw.url ?? '')
      ? staticMiss(request, reply)
      : sendError(reply, deps, {
          status: 404,
          message: `Page not found: ${(request.raw.url ?? '').split('?')[0]}`,
          path: '',
          ...inLanguageOf(request.site, request.raw.url ?? '/'),
        }),
  );

  await app.register(healthRoutes);
  await app.register(contentApiRoutes, { content, revalidateToken: options.revalidateToken });
  await app.register(webhookRoutes, { content, secret: options.webhookSecret });
  await app.register(buildRoutes, { assets });
  // Drafts are files of the embedded store
  if (store) await app.register(draftRoutes, { drafts: store.drafts, token: preview.draftToken });
  if (workbench && store)
    await app.register(workbenchRoutes, {
      sites,
      contentDir: options.contentDir,
      store,
      token: preview.draftToken,
      fromSource: Boolean(options.devMiddleware),
    });
  if (existsSync(`${publicDir}/icons`)) await app.register(iconRoutes, { dir: `${publicDir}/icons` });
  await app.register(imageRoutes, images);
  await app.register(seoRoutes, { sites, content, ttlMs: contentTtlMs });
  await app.register(pageRoutes, deps);
  if (!options.data?.url) {
    const { url: _elsewhere, ...data } = options.data ?? {};
    // Sockets open only for the storefronts' hosts, from their pages or the editor's.
    const upgrade = { resolveHost: hosts.resolve, editorOrigins: preview.editorOrigins };
    await app.register(dataPlugin, {
      contentDir: options.contentDir,
      introspection: dev,
      upgrade,
      clientAddress: addresses.of,
      ...(metrics ? { onUpgradeRefused: (reason: UpgradeRefusalReason) => metrics.upgradeRefused(reason) } : {}),
      ...(shared ? { shareCatalog: shared.shareCatalog } : {}),
      ...data,
      socketLimits: { total: socketsMax, ...data.socketLimits },
    });
  }

  app.addHook('onClose', async () => {
    store?.close();
    await shared?.close();
  });
  return app;
}
