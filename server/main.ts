import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { AggregatorRegistry } from 'prom-client';
import { buildServer } from './app.ts';
import { supervise } from './cluster/supervisor.ts';
import { workerCount } from './cluster/worker-count.ts';
import { type Env, readEnv } from './config/env.ts';
import { loadSitesConfig } from './config/sites.ts';
import { contentSource } from './content/source.ts';
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
/** Connections the kernel may hold for accept (it caps this at somaxconn, 4096 on Linux since 5.4). */
const LISTEN_BACKLOG = 4096;

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
  const workers = workerCount(env.WORKERS, availableParallelism());
  // `npm run dev` stays one process: Vite's watcher and hot reload belong to one server.
  if (workers > 1 && cluster.isPrimary && !process.argv.includes('--dev')) return runPrimary(env, workers);
  return runServer(env);
}

/** `WORKERS=N`: the primary forks the servers and serves their summed metrics; it serves no pages. */
async function runPrimary(env: Env, workers: number): Promise<void> {
  const log = pino({ level: 'info' });
  const supervisor = supervise({ workers, log, graceMs: SHUTDOWN_GRACE_MS });
  const scrape =
    env.METRICS_PORT === 0
      ? undefined
      : await listenForMetrics({ text: supervisor.metricsText }, env, (error) =>
          log.error({ err: error }, 'Metrics collection failed'),
        );
  if (scrape) log.info({}, `Metrics of ${workers} workers at http://${env.METRICS_HOST}:${scrape.port}/metrics`);
  await supervisor.stopped;
  await scrape?.close();
  log.info({}, 'Closed');
  process.exit(0);
}

async function runServer(env: Env): Promise<void> {
  const dev = env.NODE_ENV === 'development';
  // The client is made before the app it serves; its warnings go to the app's log once there is one.
  const log: {
    warn?: (details: object, message: string) => void;
    error?: (details: object, message: string) => void;
  } = {};
  const content = contentSource(env, {
    warn: (details, message) => log.warn?.(details, message),
    error: (details, message) => log.error?.(details, message),
  });
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
    webhookSecret: env.CONTENTSTACK_WEBHOOK_SECRET,
    redisUrl: env.REDIS_URL,
    ...(env.CDN_PURGE_URL ? { cdnPurge: { url: env.CDN_PURGE_URL, token: env.CDN_PURGE_TOKEN } } : {}),
    trustProxy: env.TRUST_PROXY,
    connections: {
      total: env.CONNECTIONS_MAX,
      perAddress: env.CONNECTIONS_PER_ADDRESS,
      firstByteMs: env.HTTP_FIRST_BYTE_TIMEOUT_MS,
    },
    socketsMax: env.SOCKETS_MAX,
    timeouts: { requestMs: env.HTTP_REQUEST_TIMEOUT_MS, keepAliveMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS },
    data: {
      url: env.GRAPHQL_URL,
      tokenSecret: env.GRAPHQL_TOKEN_SECRET,
      demoChangeMs: env.GRAPHQL_DEMO_CHANGE_MS,
    },
    // Preview workbench: a development tool; production needs WORKBENCH=on.
    ...((dev ? env.WORKBENCH !== 'off' : env.WORKBENCH === 'on') && !content ? { workbench: { port: env.PORT } } : {}),
    // HTML_CACHE=off for the bench's uncached rows; per-request log lines in development
    // only (production logs warnings, errors and lifecycle: two lines per request cost more than a cached page).
    htmlCache: env.HTML_CACHE !== 'off',
    htmlCacheTtlMs: env.HTML_CACHE_TTL_MS,
    images: {
      ...(env.IMAGE_CACHE_DIR ? { cacheDir: env.IMAGE_CACHE_DIR } : {}),
      ...(env.IMAGE_CACHE_MB ? { cacheBytes: env.IMAGE_CACHE_MB * 1024 * 1024 } : {}),
    },
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
  // A worker drains when its supervisor says so (SIGTERM): Ctrl-C in a terminal signals the whole
  // process group, and a SIGINT here as well would be close-with-grace's second signal, an exit.
  if (cluster.isWorker) process.on('SIGINT', () => {});
  closeWithGrace(
    { delay: SHUTDOWN_GRACE_MS, ...(cluster.isWorker ? { skip: ['SIGINT'] } : {}) },
    async ({ signal, err }) => {
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
    },
  );

  // Node's default backlog (511) overflows under a reconnect flood between two turns of a busy loop;
  // the kernel then drops the handshake's last ACK and every new visitor waits a SYN-ACK
  // retransmission (1 s, then 3) before being accepted. The kernel caps this at somaxconn.
  await app.listen({ port: env.PORT, host: env.HOST, backlog: LISTEN_BACKLOG });
  if (metrics && cluster.isWorker) {
    // The primary asks every worker for its registry and serves the sum; constructing an aggregator
    // is what makes prom-client answer those requests in a worker.
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([metrics.registry]);
  } else if (metrics) {
    scrape = await listenForMetrics(metrics, env, (error) =>
      app.log.error({ err: error }, 'Metrics collection failed'),
    );
    app.log.info(`Metrics at http://${env.METRICS_HOST}:${scrape.port}/metrics`);
  }
  await vite?.start(app.server);
}

function listenForMetrics(
  metrics: Pick<Metrics, 'text'>,
  env: Env,
  onError: (error: unknown) => void,
): Promise<MetricsServer> {
  return startMetricsServer(metrics, { port: env.METRICS_PORT, host: env.METRICS_HOST, onError }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EADDRINUSE') throw error;
      throw new ConfigError(
        `METRICS_PORT ${env.METRICS_PORT} is in use: set METRICS_PORT to a free port, or 0 to turn metrics off`,
      );
    },
  );
}

main().catch((error: unknown) => {
  // Configuration problems are the operator's to fix: say what and where, without a stack.
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
