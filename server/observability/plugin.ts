import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.ts';
import type { Readiness } from './readiness.ts';
import { REQUEST_ID_HEADER } from './request-id.ts';
import { routeKind, statusClass } from './route-kind.ts';
import type { Tracing } from './tracing.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether the process takes traffic; `drain()` it before closing. */
    readiness: Readiness;
  }
}

export interface ObservabilityOptions {
  readiness: Readiness;
  /** Request metrics; absent, no hook measures anything. */
  metrics?: Metrics;
  /** Request spans; their hooks come first, so everything after runs under the request's span. */
  tracing?: Tracing;
}

/**
 * Request ids on every response, request metrics and the readiness probe. Registered before any
 * other hook, so shed requests and unknown hosts get an id and are counted too.
 */
export function observability(app: FastifyInstance, { readiness, metrics, tracing }: ObservabilityOptions): void {
  app.decorate('readiness', readiness);
  tracing?.instrument(app);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  if (metrics) {
    app.addHook('onResponse', (request, reply, done) => {
      const status = reply.statusCode;
      const kind = routeKind({ url: request.raw.url ?? '/', route: request.routeOptions.url, status });
      metrics.request(kind, statusClass(status), reply.elapsedTime / 1000);
      done();
    });
  }
  app.addHook('onReady', async () => {
    void readiness.start();
  });
  // Closing means draining, whoever closes (a signal, a test, an error).
  app.addHook('preClose', async () => readiness.drain());

  app.get('/readyz', { config: { anyHost: true, probe: true } }, async (_request, reply) => {
    const report = readiness.report();
    reply.status(report.status === 'ready' ? 200 : 503).header('cache-control', 'no-store');
    return report;
  });
}
