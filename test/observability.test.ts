import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { mock } from 'node:test';
import { createClient } from 'graphql-ws';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import t from 'tap';
import WebSocket from 'ws';
import { ContentChanges } from '../server/content/changes.ts';
import { Metrics } from '../server/observability/metrics.ts';
import { startMetricsServer } from '../server/observability/metrics-server.ts';
import { ROUTE_KINDS, STATUS_CLASSES } from '../server/observability/route-kind.ts';
import { demoServer, HOSTS } from './helpers.ts';
import { until } from './until.ts';

/** Metrics, request ids and readiness on the demo app, scraped and read back as Prometheus text. */

const PRODUCT = '/cs/kitchen/aquasense-60-dishwasher-4711';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (the format's simple subset prom-client writes). */
function samples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1] ?? '', m[2] ?? '']),
    );
    out.push({ name: match[1] ?? '', labels, value: Number(match[3]) });
  }
  return out;
}

function value(all: Sample[], name: string, labels: Record<string, string> = {}): number {
  return all
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

t.test('requests are counted and timed by route kind and status class; scraped on a port of its own', async (t) => {
  const metrics = new Metrics();
  const app = await demoServer({ metrics, data: { demoChangeMs: 0 } });
  t.teardown(() => app.close());
  const uk = { host: HOSTS.uk };
  const requests: [
    string,
    { method?: 'GET' | 'POST'; url: string; headers?: Record<string, string>; body?: Record<string, unknown> },
    number,
  ][] = [
    ['page', { url: PRODUCT, headers: uk }, 200],
    ['page', { url: PRODUCT, headers: uk }, 200],
    ['payload', { url: `${PRODUCT}/_payload.json`, headers: uk }, 200],
    ['redirect', { url: '/', headers: { host: HOSTS.ch, 'accept-language': 'fr' } }, 302],
    ['error', { url: '/no/such/page', headers: uk }, 404],
    ['asset', { url: '/images/dishwasher.svg', headers: uk }, 200],
    ['api', { url: '/healthcheck' }, 200],
    ['graphql', { method: 'POST', url: '/graphql', body: { query: '{ __typename }' } }, 200],
    ['preview', { url: '/cs/live', headers: uk }, 200],
  ];
  for (const [kind, request, status] of requests) {
    const response = await app.inject(request);
    t.equal(response.statusCode, status, `${kind}: ${request.url} answers ${status}`);
  }

  const scrape = await startMetricsServer(metrics, { port: 0, host: '127.0.0.1', onError: (e) => t.error(e) });
  t.teardown(() => scrape.close());
  const response = await fetch(`http://127.0.0.1:${scrape.port}/metrics`);
  t.equal(response.status, 200);
  t.match(response.headers.get('content-type'), /^text\/plain; version=0\.0\.4/);
  const all = samples(await response.text());

  for (const [kind, , status] of requests) {
    const status_class = `${String(status)[0]}xx`;
    t.ok(value(all, 'vitrine_http_requests_total', { kind, status_class }) >= 1, `${kind} ${status_class} counted`);
    t.ok(
      value(all, 'vitrine_http_request_duration_seconds_count', { kind, status_class }) >= 1,
      `${kind} ${status_class} timed`,
    );
  }
  t.equal(value(all, 'vitrine_http_requests_total', { kind: 'page' }), 2, 'the two page requests, no more');
  // Label values come from the fixed sets only: no path, no host.
  for (const s of all.filter((s) => s.name.startsWith('vitrine_http_'))) {
    t.ok((ROUTE_KINDS as readonly string[]).includes(s.labels.kind ?? ''), `kind ${s.labels.kind}`);
    t.ok((STATUS_CLASSES as readonly string[]).includes(s.labels.status_class ?? ''), `class ${s.labels.status_class}`);
  }

  t.equal(value(all, 'vitrine_html_cache_lookups_total', { result: 'miss' }), 1, 'the first page render: a miss');
  t.equal(value(all, 'vitrine_html_cache_lookups_total', { result: 'hit' }), 1, 'the second: a hit');
  t.ok(
    all.some((s) => s.name === 'vitrine_html_cache_lookups_total' && s.labels.result === 'stale'),
    'stale listed',
  );
  t.ok(
    all.some((s) => s.name === 'vitrine_html_cache_lookups_total' && s.labels.result === 'coalesced'),
    'coalesced listed',
  );
  t.ok(
    value(all, 'vitrine_content_read_duration_seconds_count', { source: 'embedded', operation: 'getPage' }) >= 1,
    'content reads timed by source and operation',
  );
  t.ok(value(all, 'vitrine_render_duration_seconds_count', { mode: 'cached' }) >= 1, 'a render for the cache');
  t.ok(value(all, 'vitrine_render_duration_seconds_count', { mode: 'streamed' }) >= 1, 'a streamed render (preview)');

  // Process metrics.
  const version = all.find((s) => s.name === 'nodejs_version_info');
  t.equal(version?.labels.version, process.version, 'nodejs_version_info names the running Node');
  t.ok(Number(version?.labels.major) >= 24, 'on Node.js 24 or later');
  for (const name of ['nodejs_eventloop_lag_p99_seconds', 'nodejs_heap_size_used_bytes', 'process_cpu_seconds_total'])
    t.ok(
      all.some((s) => s.name === name),
      `${name} is exported`,
    );

  // Every family the Grafana dashboard reads is one the server exports.
  const exported = new Set(all.map((s) => s.name));
  const dashboard = readFileSync('docs/operations/grafana-dashboard.json', 'utf8');
  const read = new Set([...dashboard.matchAll(/\b(?:vitrine|nodejs|process)_\w+/g)].map((m) => m[0]));
  t.ok(read.size >= 10, `the dashboard reads ${read.size} series`);
  for (const name of read) t.ok(exported.has(name), `the dashboard's ${name} is exported`);

  // The public port has no /metrics, and the scrape port serves nothing else.
  t.equal((await app.inject({ url: '/metrics', headers: uk })).statusCode, 404, 'no /metrics on the public port');
  t.equal((await fetch(`http://127.0.0.1:${scrape.port}/`)).status, 404, 'the scrape port serves only /metrics');
});

t.test('every exported name follows Prometheus naming: _total on counters and only there', async (t) => {
  const metrics = new Metrics();
  const scrape = await startMetricsServer(metrics, { port: 0, host: '127.0.0.1', onError: (e) => t.error(e) });
  t.teardown(() => scrape.close());
  const families = parsePrometheusTextFormat(await (await fetch(`http://127.0.0.1:${scrape.port}/metrics`)).text());
  t.ok(families.length >= 20, `${families.length} families parsed`);
  for (const { name, type } of families) {
    t.match(name, /^[a-zA-Z_:][a-zA-Z0-9_:]*$/, `${name} is a valid metric name`);
    if (type === 'COUNTER') t.match(name, /_total$/, `counter ${name} ends in _total`);
    else t.notMatch(name, /_total$/, `${type.toLowerCase()} ${name} does not end in _total`);
    if (type !== 'HISTOGRAM' && type !== 'SUMMARY')
      t.notMatch(name, /_(count|sum|bucket)$/, `${name}: no reserved suffix`);
  }
  // The totals of active handles, requests and resources are still there, under accepted names.
  const byName = new Map(families.map((f) => [f.name, f]));
  for (const name of ['nodejs_active_handles_all', 'nodejs_active_requests_all', 'nodejs_active_resources_all']) {
    const family = byName.get(name);
    t.equal(family?.type, 'GAUGE', `${name} is a gauge`);
    t.ok(Number(family?.metrics[0]?.value) >= 0, `${name} has a value`);
  }
  t.ok(
    Number(byName.get('nodejs_active_handles_all')?.metrics[0]?.value) >= 1,
    'the scrape server is an active handle',
  );
});

t.test('content read failures are counted by source', async (t) => {
  const metrics = new Metrics();
  const failing = {
    getPage: async () => {
      throw new Error('upstream down');
    },
    getEntry: async () => null,
    getApplicationConfiguration: async () => ({ globals: { dhfIsEnabled: false }, navigation: {} }),
    hasPage: async () => false,
    changes: new ContentChanges(),
  };
  const app = await demoServer({ metrics, content: failing as never });
  t.teardown(() => app.close());
  const response = await app.inject({ url: PRODUCT, headers: { host: HOSTS.uk } });
  t.equal(response.statusCode, 500);
  const all = samples((await metrics.text()).body);
  t.ok(value(all, 'vitrine_content_read_errors_total', { source: 'upstream', operation: 'getPage' }) >= 1);
  t.equal(
    value(all, 'vitrine_content_read_errors_total', { source: 'embedded' }),
    0,
    'nothing put on the wrong source',
  );
});

t.test('shed requests are counted by reason', async (t) => {
  const metrics = new Metrics();
  const app = await demoServer({
    metrics,
    pressure: { maxHeapUsedBytes: 1, maxEventLoopDelay: 60_000, sampleInterval: 50 },
  });
  t.teardown(() => app.close());
  await app.ready();
  await app.readiness.start();
  // Shed once under-pressure has measured the heap, whenever its first sample runs. A 503 can also
  // come sooner from elsewhere (a cold render past the first-byte deadline on a busy machine), so
  // the wait is for the heap count, and the request that raised it must have been refused.
  const heapSheds = async () =>
    value(samples((await metrics.text()).body), 'vitrine_shed_requests_total', { reason: 'heap' });
  const response = await until(
    async () => {
      const before = await heapSheds();
      const res = await app.inject({ url: PRODUCT, headers: { host: HOSTS.uk } });
      return (await heapSheds()) > before && res;
    },
    { what: 'the first heap sample to shed a page' },
  );
  t.equal(response.statusCode, 503, 'the page counted as shed was refused');
  t.equal((await app.inject({ url: '/readyz' })).statusCode, 200, 'the readiness probe is never shed');
});

t.test('open WebSocket subscriptions are a gauge', async (t) => {
  const metrics = new Metrics();
  const app = await demoServer({ metrics, data: { demoChangeMs: 0 } });
  t.teardown(() => app.close());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const gauge = async () => value(samples((await metrics.text()).body), 'vitrine_websocket_subscriptions_open', {});
  t.equal(await gauge(), 0, 'none at first');
  const client = createClient({ url: `ws://127.0.0.1:${port}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
  t.teardown(() => client.dispose());
  const stop = client.subscribe(
    { query: 'subscription { productUpdated(ids: ["4711"], locale: "en-GB") { id } }' },
    { next: () => {}, error: () => {}, complete: () => {} },
  );
  await until(async () => (await gauge()) !== 0, { what: 'the subscription counted' });
  t.equal(await gauge(), 1, 'one open');
  stop();
  await until(async () => (await gauge()) === 0, { what: 'the subscription closed' });
  t.equal(await gauge(), 0, 'closed again');
});

t.test('every response carries a request id, on every log line of that request', async (t) => {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = await demoServer({ logger: { level: 'info', stream } });
  t.teardown(() => app.close());
  const first = await app.inject({ url: '/no/such/page', headers: { host: HOSTS.uk } });
  const second = await app.inject({ url: '/no/such/page', headers: { host: HOSTS.uk } });
  const id = first.headers['x-request-id'];
  t.match(id, /^[0-9a-f-]{36}$/, 'a UUID');
  t.not(id, second.headers['x-request-id'], 'a new one per request');
  const ofFirst = lines.filter((line) => line.reqId === id);
  t.ok(ofFirst.length >= 2, 'its log lines (received, completed) carry it');
  t.ok(
    lines.filter((line) => line.req || line.res).every((line) => typeof line.reqId === 'string'),
    'no request line without an id',
  );
  const unknownHost = await app.inject({ url: '/', headers: { host: 'evil.example' } });
  t.ok(unknownHost.headers['x-request-id'], 'an unknown host gets one too');
});

t.test('X-Request-Id is taken only from a trusted proxy, and only when it looks like an id', async (t) => {
  const untrusting = await demoServer();
  const trusting = await demoServer({ trustProxy: '10.0.0.1' });
  t.teardown(() => Promise.all([untrusting.close(), trusting.close()]));
  const cases: [string, typeof untrusting, string, string, boolean][] = [
    ['no trusted proxy configured', untrusting, '10.0.0.1', 'abc-123', false],
    ['from the trusted proxy', trusting, '10.0.0.1', 'abc-123', true],
    ['from another peer', trusting, '10.0.0.2', 'abc-123', false],
    ['too long', trusting, '10.0.0.1', 'a'.repeat(129), false],
    ['with characters a log line must not carry', trusting, '10.0.0.1', 'abc\u001b[31m', false],
    ['empty', trusting, '10.0.0.1', '', false],
  ];
  for (const [label, app, remoteAddress, sent, kept] of cases) {
    const response = await app.inject({
      url: '/healthcheck',
      remoteAddress,
      headers: { 'x-request-id': sent },
    });
    if (kept) t.equal(response.headers['x-request-id'], sent, `${label}: kept`);
    else t.not(response.headers['x-request-id'], sent, `${label}: replaced`);
  }
});

t.test('/readyz: 200 when ready, 503 once draining; /healthcheck stays 200', async (t) => {
  const app = await demoServer();
  t.teardown(() => app.close());
  await app.ready();
  // The content check started with the app; wait for it rather than for the clock.
  await app.readiness.start();
  const ready = await app.inject({ url: '/readyz', headers: { host: 'localhost' } });
  t.equal(ready.statusCode, 200);
  t.same(ready.json(), { status: 'ready', checks: { build: 'ok', content: 'ok' } });
  t.equal(ready.headers['cache-control'], 'no-store');
  app.readiness.drain();
  const draining = await app.inject({ url: '/readyz' });
  t.equal(draining.statusCode, 503);
  t.equal(draining.json().status, 'draining');
  t.equal((await app.inject({ url: '/healthcheck' })).statusCode, 200, 'still live');
});

t.test('/readyz: 503 while starting, when the build is missing or content cannot be read yet', async (t) => {
  const noBuild = await demoServer({ assets: undefined, clientDir: '/nonexistent/build' }).catch((e: Error) => e);
  // Without a build the server does not start at all; /readyz covers a build removed underneath it.
  t.type(noBuild, Error, 'no build: no server');

  let fail = true;
  const flaky = {
    getPage: async () => {
      if (fail) throw new Error('not yet');
      return null;
    },
    getEntry: async () => null,
    getApplicationConfiguration: async () => ({ globals: { dhfIsEnabled: false }, navigation: {} }),
    hasPage: async () => false,
    changes: new ContentChanges(),
  };
  const app = await demoServer({ content: flaky as never });
  t.teardown(() => app.close());
  await app.ready();
  await app.readiness.start();
  const starting = await app.inject({ url: '/readyz' });
  t.equal(starting.statusCode, 503);
  t.same(starting.json(), { status: 'starting', checks: { build: 'ok', content: 'failed' } });
  fail = false;
  // Failed checks are tried again after a second, on the wall clock: moved here, not waited for.
  mock.timers.enable({ apis: ['Date'], now: Date.now() });
  t.teardown(() => mock.timers.reset());
  mock.timers.tick(1_050);
  await app.inject({ url: '/readyz' });
  await app.readiness.start();
  t.equal((await app.inject({ url: '/readyz' })).statusCode, 200, 'ready once content answers');
});
