import type { Context, Span, Tracer } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ContentOperation, ContentSource, RenderMode } from './metrics.ts';
import { routeKind } from './route-kind.ts';

/**
 * OpenTelemetry spans over OTLP/HTTP, opt-in: `startTracing` is only called when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set, and only then are the OpenTelemetry packages imported and an
 * async context manager enabled (its AsyncLocalStorage costs every promise something).
 *
 * One server span per request with children: `routing` (host resolution and route match, up to the
 * handler), `content.read` per content read, `render`, and `send` (reply to response finished).
 * Children are recorded when their work ends, with the start time it had, so the code doing the
 * work only reports durations (the same reports the metrics take).
 */
export interface Tracing {
  contentRead(source: ContentSource, operation: ContentOperation, seconds: number, failed: boolean): void;
  render(mode: RenderMode, seconds: number): void;
  /** Adds the per-request spans to `app`. */
  instrument(app: FastifyInstance): void;
  /** Exports what is pending and stops. */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** OTLP/HTTP base URL; spans go to `{endpoint}/v1/traces`. */
  endpoint: string;
  serviceName?: string;
}

export async function startTracing({ endpoint, serviceName = 'vitrine' }: TracingOptions): Promise<Tracing> {
  const [api, { AsyncLocalStorageContextManager }, { BasicTracerProvider, BatchSpanProcessor }, otlp, resources] =
    await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
    ]);
  const { context, trace, SpanKind, SpanStatusCode } = api;
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const exporter = new otlp.OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new BasicTracerProvider({
    resource: resources.resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000 })],
  });
  const tracer: Tracer = provider.getTracer('vitrine');

  /** A span for work that just ended, `seconds` long, under the active request's span. */
  const finished = (name: string, seconds: number, attributes: Record<string, string>, failed = false) => {
    const end = Date.now();
    const span = tracer.startSpan(name, { startTime: end - seconds * 1000, attributes }, context.active());
    if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end(end);
  };

  const spans = new WeakMap<FastifyRequest, { span: Span; context: Context; sendStart?: number }>();

  return {
    contentRead(source, operation, seconds, failed) {
      finished(
        'content.read',
        seconds,
        { 'vitrine.content.source': source, 'vitrine.content.operation': operation },
        failed,
      );
    },
    render(mode, seconds) {
      finished('render', seconds, { 'vitrine.render.mode': mode });
    },
    instrument(app) {
      app.addHook('onRequest', (request, _reply, done) => {
        const span = tracer.startSpan(`${request.method}`, {
          kind: SpanKind.SERVER,
          attributes: { 'http.request.method': request.method, 'vitrine.request_id': request.id },
        });
        const active = trace.setSpan(context.active(), span);
        spans.set(request, { span, context: active });
        // Everything after this hook (other hooks, the handler, its promises) runs under the span.
        context.with(active, done);
      });
      app.addHook('preHandler', (request, reply, done) => {
        const entry = spans.get(request);
        if (entry) {
          const seconds = reply.elapsedTime / 1000;
          context.with(entry.context, () =>
            finished('routing', seconds, { 'http.route': request.routeOptions.url ?? '' }),
          );
        }
        done();
      });
      app.addHook('onSend', (request, _reply, payload, done) => {
        const entry = spans.get(request);
        if (entry) entry.sendStart = Date.now();
        done(null, payload);
      });
      app.addHook('onResponse', (request, reply, done) => {
        const entry = spans.get(request);
        if (entry) {
          const status = reply.statusCode;
          if (entry.sendStart !== undefined) {
            const seconds = (Date.now() - entry.sendStart) / 1000;
            context.with(entry.context, () => finished('send', seconds, {}));
          }
          const kind = routeKind({ url: request.raw.url ?? '/', route: request.routeOptions.url, status });
          entry.span.updateName(`${request.method} ${kind}`);
          entry.span.setAttributes({
            'http.response.status_code': status,
            'http.route': request.routeOptions.url ?? '',
            'vitrine.route_kind': kind,
          });
          if (status >= 500) entry.span.setStatus({ code: SpanStatusCode.ERROR });
          entry.span.end();
        }
        done();
      });
    },
    async shutdown() {
      await provider.shutdown();
      context.disable();
    },
  };
}
