import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { Metrics } from '../server/observability/metrics.ts';
import { startTracing } from '../server/observability/tracing.ts';
import { demoServer, HOSTS } from './helpers.ts';

/** OpenTelemetry: off unless asked for; when on, spans reach an OTLP/HTTP receiver. */

const PRODUCT = '/cs/kitchen/aquasense-60-dishwasher-4711';
/** Where @opentelemetry/api keeps its global registrations (context manager, tracer provider). */
const OTEL_GLOBAL = Symbol.for('opentelemetry.js.api.1');

interface OtlpSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: { key: string; value: Record<string, unknown> }[];
}

t.test('without an endpoint no context manager is enabled (nothing of the SDK runs)', async (t) => {
  const app = await demoServer({ metrics: new Metrics() });
  t.teardown(() => app.close());
  // Served or shed (a loaded machine may shed it): either way the request ran through every hook.
  await app.inject({ url: PRODUCT, headers: { host: HOSTS.uk } });
  const registered = (globalThis as Record<symbol, { context?: unknown } | undefined>)[OTEL_GLOBAL];
  t.notOk(registered?.context, 'no global context manager');
});

t.test('with an endpoint, a request is one trace: routing, content reads, render and send under it', async (t) => {
  const received: OtlpSpan[] = [];
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      t.equal(request.url, '/v1/traces', 'OTLP/HTTP traces path');
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
      };
      for (const resource of body.resourceSpans) for (const scope of resource.scopeSpans) received.push(...scope.spans);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  t.teardown(() => new Promise<void>((done) => receiver.close(() => done())));
  const { port } = receiver.address() as AddressInfo;

  const tracing = await startTracing({ endpoint: `http://127.0.0.1:${port}` });
  const app = await demoServer({ tracing, htmlCache: false });
  const response = await app.inject({ url: PRODUCT, headers: { host: HOSTS.uk } });
  t.equal(response.statusCode, 200);
  await app.close();
  await tracing.shutdown(); // flushes the batch

  const server = received.find((span) => span.name === 'GET page');
  t.ok(server, 'a server span named by method and route kind', { names: received.map((s) => s.name) });
  if (!server) return;
  const requestId = server.attributes.find((a) => a.key === 'vitrine.request_id')?.value.stringValue;
  t.equal(requestId, response.headers['x-request-id'], 'carrying the request id');
  const children = received.filter((span) => span.parentSpanId === server.spanId);
  for (const name of ['routing', 'content.read', 'render', 'send'])
    t.ok(
      children.some((span) => span.name === name),
      `${name} is a child of the request span`,
    );
  t.ok(
    children.every((span) => span.traceId === server.traceId),
    'one trace',
  );
});
