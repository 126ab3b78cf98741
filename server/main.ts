import closeWithGrace from 'close-with-grace';
import { buildServer } from './app.ts';
import { readEnv } from './config/env.ts';
import { loadSitesConfig } from './config/sites.ts';
import { createUpstreamContentService } from './content/upstream.ts';
import { ConfigError } from './errors.ts';
import { Metrics } from './observability/metrics.ts';
import { type MetricsServer, startMetricsServer } from './observability/metrics-server.ts';

/**
 * How long the whole shutdown may take after SIGTERM/SIGINT (draining, then in-flight requests
 * finishing) before the process exits anyway: inside `docker stop`'s default 10 s.
 */
const SHUTDOWN_GRACE_MS = 9_500;
/** Production default of SHUTDOWN_DRAIN_MS: a few load-balancer probe intervals. */
const PRODUCTION_DRAIN_MS = 3_000;

/**
 * pino-pretty is a development dependency: a production install (`npm ci --omit=dev`) run with
 * NODE_ENV=development logs plain JSON rather than failing to start.
 */
function prettyLogs(dev: boolean): boolean {
  if (!dev) return false;
  try {
    import.meta.resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const env = readEnv();
  const dev = env.NODE_ENV === 'development';
  // The client is made before the app it serves; its warnings go to the app's log once there is one.
  const log: {
    warn?: (details: object, message: string) => void;
    error?: (details: object, message: string) => void;
  } = {};
  const content = env.CONTENT_SERVICE_URL
    ? createUpstreamContentService({
        logger: {
          warn: (details, message) => log.warn?.(details, message),
          error: (details, message) => log.error?.(details, message),
        },
        contentServiceUrl: env.CONTENT_SERVICE_URL,
        appConfigUrl: env.APP_CONFIG_URL ?? env.CONTENT_SERVICE_URL,
        cacheTtlMs: env.CONTENT_CACHE_TTL_MS ?? 60_000,
        staleMs: 10 * 60_000,
        maxEntries: 20_000,
      })
    : undefined;
  // `npm run dev`: Vite serves the islands with hot reload instead of the build.
  const vite = process.argv.includes('--dev')
    ? (await import('./dev.ts')).createDevAssets(
        loadSitesConfig(env.SITES_CONFIG).config.sites.flatMap((s) => [s.host, ...s.aliases]),
      )
    : undefined;
  const metrics = env.METRICS_PORT === 0 ? undefined : new Metrics();
  // Tracing is opt-in: without an endpoint not one OpenTelemetry module is loaded.
  const tracing = env.OTEL_EXPORTER_OTLP_ENDPOINT
    ? await (await import('./observability/tracing.ts')).startTracing({ endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT })
    : undefined;
  const app = await buildServer({
    ...(metrics ? { metrics } : {}),
    ...(tracing ? { tracing } : {}),
    ...(vite ? { assets: vite.assets, devMiddleware: vite.middleware } : {}),
    sites: env.SITES_CONFIG,
    contentDir: env.CONTENT_DIR,
    ...(content ? { content } : {}),
    forceHost: env.FORCE_HOST || undefined,
    dev,
    revalidateToken: env.REVALIDATE_TOKEN,
    trustProxy: env.TRUST_PROXY,
    data: {
      url: env.GRAPHQL_URL,
      tokenSecret: env.GRAPHQL_TOKEN_SECRET,
      demoChangeMs: env.GRAPHQL_DEMO_CHANGE_MS,
    },
    // Preview workbench (issue 13): a development tool; production needs WORKBENCH=on.
    ...((dev ? env.WORKBENCH !== 'off' : env.WORKBENCH === 'on') && !content ? { workbench: { port: env.PORT } } : {}),
    // Issue 10: HTML_CACHE=off for the bench's uncached rows; per-request log lines in development
    // only (production logs warnings, errors and lifecycle: two lines per request cost more than a cached page).
    htmlCache: env.HTML_CACHE !== 'off',
    htmlCacheTtlMs: env.HTML_CACHE_TTL_MS,
    requestLogging: dev,
    logger: prettyLogs(dev)
      ? { level: 'info', transport: { target: 'pino-pretty', options: { ignore: 'pid,hostname' } } }
      : { level: 'info' },
  });
  log.warn = (details, message) => app.log.warn(details, message);
  log.error = (details, message) => app.log.error(details, message);
  app.addHook('onClose', async () => {
    await content?.close();
    await vite?.close();
  });

  let scrape: MetricsServer | undefined;
  const drainMs = env.SHUTDOWN_DRAIN_MS ?? (env.NODE_ENV === 'production' ? PRODUCTION_DRAIN_MS : 0);
  closeWithGrace({ delay: SHUTDOWN_GRACE_MS }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'Shutting down after an error');
    else app.log.info({ signal, drainMs }, 'Shutting down: draining');
    // Not ready from now on, still serving: load balancers see /readyz fail and stop sending
    // traffic before the listener closes; then in-flight requests finish.
    app.readiness.drain();
    if (!err && drainMs > 0) await new Promise((done) => setTimeout(done, drainMs));
    await app.close();
    await scrape?.close();
    await tracing?.shutdown();
    app.log.info('Closed');
  });

  await app.listen({ port: env.PORT, host: env.HOST });
  if (metrics) {
    scrape = await startMetricsServer(metrics, {
      port: env.METRICS_PORT,
      host: env.HOST,
      onError: (error) => app.log.error({ err: error }, 'Metrics collection failed'),
    }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EADDRINUSE') throw error;
      throw new ConfigError(
        `METRICS_PORT ${env.METRICS_PORT} is in use: set METRICS_PORT to a free port, or 0 to turn metrics off`,
      );
    });
    app.log.info(`Metrics at http://${env.HOST}:${scrape.port}/metrics`);
  }
  await vite?.start(app.server);
}

main().catch((error: unknown) => {
  // Configuration problems are the operator's to fix: say what and where, without a stack.
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
