import { existsSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import { join, resolve } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { constants as zlib } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import fastifyMiddie from '@fastify/middie';
import fastifyStatic from '@fastify/static';
import fastifyUnderPressure from '@fastify/under-pressure';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions, LogController } from 'fastify';
import { createMessageCatalog } from '../client/i18n/messages.ts';
import type { Site, SitesConfig } from '../common/site.ts';
import { loadSitesConfig } from './config/sites.ts';
import type { ContentService } from './content/service.ts';
import { createEmbeddedStore, type EmbeddedStore } from './content/store.ts';
import { type DataOptions, dataConnectSources, dataPlugin } from './data/plugin.ts';
import { openSubscriptions } from './data/socket.ts';
import { instrumentContent } from './observability/content.ts';
import { type Metrics, shedReason } from './observability/metrics.ts';
import { observability } from './observability/plugin.ts';
import { Readiness } from './observability/readiness.ts';
import { requestIdGenerator } from './observability/request-id.ts';
import type { Tracing } from './observability/tracing.ts';
import { type PreviewConfig, readPreviewConfig } from './preview/config.ts';
import { ASSETS_PREFIX, type AssetManifest, loadAssetManifest } from './render/assets.ts';
import { sendError } from './render/error-page.ts';
import { HtmlCache } from './render/html-cache.ts';
import { buildRoutes } from './routes/builds.ts';
import { contentApiRoutes } from './routes/content-api.ts';
import { draftRoutes } from './routes/drafts.ts';
import { healthRoutes } from './routes/health.ts';
import { ICON_PATHS, iconRoutes } from './routes/icons.ts';
import { pageRoutes } from './routes/pages.ts';
import { seoRoutes } from './routes/seo.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { withWorkbenchOrigins, workbenchRoutes } from './routes/workbench.ts';
import { HOME_PAGE_ID } from './routing/route-shape.ts';
import { createHostResolver, hostnameOf } from './sites/resolve.ts';
import { createMismatchLogger } from './sites/url-check.ts';

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
  /** Socket idle and whole-request limits; tests shorten them. */
  timeouts?: { connectionMs?: number; requestMs?: number };
  /** Set false to render every request (the rendered-HTML cache is on by default). */
  htmlCache?: boolean;
  /** Fastify's trustProxy: which peers may set X-Forwarded-* (contract section 8). Off by default. */
  trustProxy?: string;
  /** The GraphQL data backend: the embedded one at /graphql, unless `data.url` names another. */
  data?: DataOptions;
  /** Overrides of the load-shedding thresholds (tests use tiny ones). */
  pressure?: PressureOptions;
  /** Log a line per request (Fastify's request logging); off keeps errors and warnings only. Default on. */
  requestLogging?: boolean;
  /** How long a rendered page is fresh in the HTML cache; then it is served stale while it re-renders. */
  htmlCacheTtlMs?: number;
  /** Editor origins, stack and draft token; read from the environment (PREVIEW_*, EDITOR_ORIGINS) when absent. */
  preview?: PreviewConfig;
  /** The editor workbench at /__workbench (development tool); its origins (every storefront host on `port`) join the editor origins. */
  workbench?: { port: number };
  /** Prometheus metrics to record into (main.ts serves them on METRICS_PORT); absent, nothing is measured. */
  metrics?: Metrics;
  /** OpenTelemetry spans (main.ts starts them when OTEL_EXPORTER_OTLP_ENDPOINT is set). */
  tracing?: Tracing;
}

export interface PressureOptions {
  /** Mean event-loop delay (ms) over one sample above which requests are shed. */
  maxEventLoopDelay?: number;
  maxHeapUsedBytes?: number;
  /** How often the process is sampled (ms). */
  sampleInterval?: number;
  /** Seconds a shed client is told to wait (`Retry-After`). */
  retryAfter?: number;
}

/**
 * Shedding thresholds: well past anything a saturated benchmark produces (its event loop runs at full
 * utilisation with mean delays of tens of ms), but before the process stalls or runs out of heap.
 */
const PRESSURE_DEFAULTS = {
  maxEventLoopDelay: 1000,
  maxHeapUsedBytes: Math.round(getHeapStatistics().heap_size_limit * 0.9),
  sampleInterval: 500,
  retryAfter: 10,
} satisfies PressureOptions;

/**
 * The headers @fastify/helmet sets for `options`. The plugin rebuilds helmet's middleware (and
 * re-parses the CSP) on every request; for one fixed configuration the result never changes, so it
 * is taken once from a throwaway instance and then set as plain headers.
 */
async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  await probe.register(fastifyHelmet, options);
  probe.get('/', async () => 'probe');
  const response = await probe.inject({ url: '/' });
  await probe.close();
  const own = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);
  return Object.fromEntries(
    Object.entries(response.headers)
      .filter(([name, value]) => !own.has(name) && typeof value === 'string')
      .map(([name, value]) => [name, value as string]),
  );
}

/** What a shed request gets: static, so shedding costs next to nothing. */
const SHED_BODY =
  '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>503 Service Unavailable</title></head>' +
  '<body><h1>503 Service Unavailable</h1><p>The server is busy. Please try again shortly.</p></body></html>';

/** Paths served the same for every host: built assets, demo images, health. */
const HOST_FREE_PREFIXES = [ASSETS_PREFIX, '/images/', ...ICON_PATHS];

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
  const undecodable: { reply?: (status: number, host: string | undefined, reply: FastifyReply) => unknown } = {};
  const app = Fastify({
    logger: options.logger ?? false,
    // Issue 10: two log lines per request cost more than serving a cached page; off in production.
    ...(options.requestLogging === false ? { logController: new LogController({ disableRequestLogging: true }) } : {}),
    trustProxy: options.trustProxy || false,
    genReqId: requestIdGenerator(options.trustProxy),
    // Bounded requests and slow-client protection (issue 10, security case 16).
    bodyLimit: 256 * 1024,
    connectionTimeout: options.timeouts?.connectionMs ?? 30_000,
    requestTimeout: options.timeouts?.requestMs ?? 30_000,
    keepAliveTimeout: 72_000,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500 },
    // A URL the router cannot decode gets the site's 400 page, not the router's JSON echoing it back.
    frameworkErrors: (error, request, reply) => {
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
      return undecodable.reply?.(status, request.headers.host, reply);
    },
  });

  const sitesConfig =
    typeof options.sites === 'string' ? loadSitesConfig(options.sites) : { config: options.sites, warnings: [] };
  for (const warning of sitesConfig.warnings) app.log.warn(warning);
  const sites = sitesConfig.config;
  const hosts = createHostResolver(sites, options.forceHost);

  const store: EmbeddedStore | undefined = options.content
    ? undefined
    : createEmbeddedStore({ dir: options.contentDir, watch: dev, logger: app.log });
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
  const htmlCache =
    options.htmlCache === false
      ? undefined
      : new HtmlCache({
          maxEntries: 2000,
          ttlMs: options.htmlCacheTtlMs ?? (options.content ? 60_000 : 10 * 60_000),
          onLookup: metrics && ((result) => metrics.cacheLookup(result)),
        });
  if (htmlCache) content.changes.subscribe(() => htmlCache.clear());
  let preview = options.preview ?? readPreviewConfig(); // live preview (issue 9)
  // Preview workbench (issue 13): needs the embedded store and a draft token; it frames pages from their own origin.
  const workbench = options.workbench && store && preview.draftToken ? options.workbench : undefined;
  if (options.workbench && !workbench) app.log.warn('The workbench needs the embedded store and DRAFT_API_TOKEN: off');
  if (workbench) preview = withWorkbenchOrigins(preview, sites, workbench.port);
  const renders = reporters.length > 0 ? { render: renderReporter(reporters) } : undefined;
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
  };
  undecodable.reply = (status, host, reply) => {
    const found = hosts.resolve(host);
    const locale = 'site' in found ? found.site.defaultLocale : sites.fallbackLocale;
    return sendError(reply, deps, { status, message: STATUS_CODES[status] ?? 'Bad Request', path: '', locale });
  };

  // Ready once the build is there and content answers (the home page of the first storefront).
  const home = sites.sites[0];
  const readiness = new Readiness({
    buildPresent: () => options.assets !== undefined || existsSync(join(clientDir, '.vite', 'manifest.json')),
    loadContent: async () => home && content.getPage(HOME_PAGE_ID, home.defaultLocale),
  });
  observability(app, { readiness, metrics, tracing });
  if (metrics) metrics.subscriptionsOpen = () => openSubscriptions(app.server);

  // Shed load with 503 + Retry-After before the event loop stalls
  // A client gets this long to send its headers (slowloris); the whole request within requestTimeout.
  app.server.headersTimeout = Math.min(10_000, options.timeouts?.requestMs ?? 30_000);
  const pressure = { ...PRESSURE_DEFAULTS, ...options.pressure };
  await app.register(fastifyUnderPressure, {
    maxEventLoopDelay: pressure.maxEventLoopDelay,
    maxHeapUsedBytes: pressure.maxHeapUsedBytes,
    sampleInterval: pressure.sampleInterval,
    pressureHandler: (request, reply, type) => {
      // Orchestrators must still see the process alive: probes are never shed. Everything else is,
      // whatever host it answers for (GraphQL included: it is where the cost comes from).
      if (request.routeOptions.config?.probe) return;
      request.log.warn({ type }, 'Under pressure: request shed');
      metrics?.shed(shedReason(type));
      reply.status(503).header('retry-after', String(pressure.retryAfter)).header('cache-control', 'no-store');
      reply.type('text/html; charset=utf-8');
      // under-pressure sends what the handler returns as the body (its types say void).
      return SHED_BODY as unknown as undefined;
    },
  });
  if (options.devMiddleware) {
    await app.register(fastifyMiddie);
    app.use(options.devMiddleware);
  }
  await app.register(fastifyCookie);
  // Helmet's headers are the same for every response: worked out once, not per request
  const securityHeaders = await helmetHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Vite's client injects <style> elements for hot CSS updates; only in development.
        styleSrc: options.devMiddleware ? ["'self'", "'unsafe-inline'"] : ["'self'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        // Data layer (issue 8): 'self' covers the embedded /graphql socket; GRAPHQL_URL adds its origin.
        connectSrc: ["'self'", ...dataConnectSources(options.data?.url)],
        frameAncestors: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // Cross-origin isolation headers would block images a CMS serves from its own CDN.
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(securityHeaders);
    // Two Host headers make the storefront ambiguous (Node keeps the first, a proxy may have used
    // the second): refused as HTTP/1.1 requires, before anything is resolved, rendered or cached.
    if (hostHeaderCount(request.raw.rawHeaders) > 1) {
      reply.code(400).header('cache-control', 'no-store').type('text/plain; charset=utf-8');
      reply.send('Bad Request: more than one Host header');
      return;
    }
    done();
  });
  await app.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    threshold: 1024,
    // Quality 11 costs ~10x the CPU of 5 for a few percent: dynamic HTML gets a fast level.
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } },
  });
  if (existsSync(clientDir)) {
    await app.register(fastifyStatic, {
      root: clientDir,
      prefix: ASSETS_PREFIX,
      // Brotli and gzip twins written by the build are sent as they are (issue 7).
      preCompressed: true,
      immutable: true,
      maxAge: '365d',
      index: false,
      allowedPath: (path) => !path.startsWith('/.vite'),
    });
  }
  const publicDir = resolve(options.publicDir ?? 'public');
  if (existsSync(publicDir)) {
    await app.register(fastifyStatic, {
      root: `${publicDir}/images`,
      prefix: '/images/',
      decorateReply: false,
      maxAge: '1d',
      index: false,
    });
  }

  app.decorateRequest('site', null as unknown as Site);
  // In production the host a visitor used should be the one the SEO links name.
  const reportMismatch = createMismatchLogger(app.log);
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config?.anyHost) return;
    const url = request.raw.url ?? '/';
    if (HOST_FREE_PREFIXES.some((p) => url.startsWith(p))) return;
    // X-Forwarded-Host counts only from a configured trusted proxy (Fastify's request.host is that
    // header only then) and only when it names a configured storefront (contract section 8).
    const forwarded =
      options.trustProxy && request.host !== request.headers.host ? hosts.resolve(request.host) : undefined;
    const found =
      forwarded && 'site' in forwarded && !forwarded.forced ? forwarded : hosts.resolve(request.headers.host);
    if ('error' in found) {
      // Never cached, never linked: the host is not one of ours.
      return sendError(reply, deps, {
        status: found.error.status,
        message: found.error.message,
        path: '',
        locale: sites.fallbackLocale,
      });
    }
    request.site = found.site;
    if (!dev && !found.forced)
      reportMismatch(found.site, hostnameOf(found === forwarded ? request.host : request.headers.host));
  });

  await app.register(healthRoutes);
  await app.register(contentApiRoutes, { content, revalidateToken: options.revalidateToken });
  await app.register(webhookRoutes, { content, secret: options.webhookSecret });
  await app.register(buildRoutes, { assets });
  // Drafts are files of the embedded store
  if (store) await app.register(draftRoutes, { contentDir: options.contentDir, token: preview.draftToken });
  if (workbench && store)
    await app.register(workbenchRoutes, {
      sites,
      contentDir: options.contentDir,
      store,
      token: preview.draftToken,
      fromSource: Boolean(options.devMiddleware),
    });
  if (existsSync(`${publicDir}/icons`)) await app.register(iconRoutes, { dir: `${publicDir}/icons` });
  await app.register(seoRoutes, { sites, content, ttlMs: contentTtlMs });
  await app.register(pageRoutes, deps);
  if (!options.data?.url) {
    const { url: _elsewhere, ...data } = options.data ?? {};
    // Sockets open only for the storefronts' hosts, from their pages or the editor's.
    const upgrade = { resolveHost: hosts.resolve, editorOrigins: preview.editorOrigins };
    await app.register(dataPlugin, { contentDir: options.contentDir, introspection: dev, upgrade, ...data });
  }

  app.setNotFoundHandler((request, reply) =>
    sendError(reply, deps, {
      status: 404,
      message: `Page not found: ${(request.raw.url ?? '').split('?')[0]}`,
      path: '',
      locale: request.site?.defaultLocale ?? sites.fallbackLocale,
    }),
  );
  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, 'Request failed');
    // Visitors get the status text, never the error's own message or stack.
    return sendError(reply, deps, {
      status,
      message: STATUS_CODES[status] ?? 'Internal Server Error',
      path: '',
      locale: request.site?.defaultLocale ?? sites.fallbackLocale,
    });
  });
  app.addHook('onClose', async () => store?.close());
  return app;
}

/** How many Host headers a request carries (rawHeaders alternates names and values). */
function hostHeaderCount(rawHeaders: string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]?.toLowerCase() === 'host') count++;
  return count;
}
