import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import t, { type Test } from 'tap';
import type { ServerOptions } from '../server/app.ts';
import { ContentError, type ContentService } from '../server/content/service.ts';
import { createEmbeddedStore } from '../server/content/store.ts';
import { demoServer, HOSTS, upstreamClient } from './helpers.ts';
import { until } from './until.ts';

/**
 * Resilience: content faults serve the last good page, else a 503 error page, and never
 * stop the server serving other pages; under pressure requests are shed with 503 + Retry-After.
 * No assertion here is about speed.
 */

const PRODUCT = '/cs/kitchen/aquasense-60-dishwasher-4711';
const get = (app: FastifyInstance, url: string, host: string = HOSTS.uk) => app.inject({ url, headers: { host } });

/** A 503 error page as a visitor sees it: HTML, Retry-After, not cached, no stack or upstream URL. */
function assertErrorPage(t: Test, res: Awaited<ReturnType<typeof get>>, what: string) {
  t.equal(res.statusCode, 503, `${what}: 503`);
  t.match(res.headers['content-type'], /text\/html/, `${what}: an HTML error page`);
  t.ok(res.headers['retry-after'], `${what}: Retry-After`);
  t.equal(res.headers['cache-control'], 'no-store', `${what}: not cached`);
  t.notMatch(res.body, /\bat \S+ \(|127\.0\.0\.1|ContentError|HttpError/, `${what}: no stack trace or upstream URL`);
}

/** The embedded store, with reads that fail on demand like an upstream that is down. */
function faultyStore() {
  const store = createEmbeddedStore({ dir: 'content' });
  const faults = { pages: new Set<string>(), templates: false, otherLocales: false, templateReads: 0 };
  const down = (where: string) => new ContentError('CONTENT_UPSTREAM', 'Content upstream failed: down', where);
  const content: ContentService = {
    async getPage(uuid, locale, preview) {
      if (faults.pages.has(uuid) && locale === 'en-GB') throw down(`pages/${uuid}`);
      if (faults.otherLocales && locale !== 'en-GB') throw down(`pages/${uuid}?language=${locale}`);
      return store.getPage(uuid, locale, preview);
    },
    async getEntry(type, uid, locale, preview) {
      if (type.endsWith('_template')) faults.templateReads++;
      if (faults.templates && type.endsWith('_template')) throw down(`${type}/${uid}`);
      return store.getEntry(type, uid, locale, preview);
    },
    changes: store.changes,
    getApplicationConfiguration: (host, locale) => store.getApplicationConfiguration(host, locale),
    hasPage: (uuid, locale) => store.hasPage(uuid, locale),
  };
  return { content, faults };
}

async function appWith(t: Test, overrides: Partial<ServerOptions>) {
  const app = await demoServer(overrides);
  t.teardown(() => app.close());
  return app;
}

t.test('a fault after a good render serves the last good page; without one, a 503 error page', async (t) => {
  const { content, faults } = faultyStore();
  // Rendered pages go stale once the clock moves, so every request after that tries to render again.
  let now = 1_000;
  const app = await appWith(t, { content, htmlCacheTtlMs: 1, htmlCacheNow: () => now });
  const good = await get(app, PRODUCT);
  t.equal(good.statusCode, 200);

  faults.pages.add('4711');
  faults.pages.add('7000');
  now += 5;
  const stale = await get(app, PRODUCT);
  t.equal(stale.statusCode, 200, 'the last good page');
  t.equal(stale.body, good.body, 'exactly as it was rendered');
  now += 5;
  t.equal((await get(app, PRODUCT)).body, good.body, 'and again after the refresh failed');

  assertErrorPage(t, await get(app, '/cs/service/warranty-7000'), 'a page never rendered');
  const home = await get(app, '/');
  t.equal(home.statusCode, 200, 'other pages keep serving');

  faults.pages.clear();
  now += 5;
  t.equal((await get(app, '/cs/service/warranty-7000')).statusCode, 200, 'the page recovers with its upstream');
});

t.test('a page built while a read failed is served but never cached, nor kept by a CDN', async (t) => {
  const { content, faults } = faultyStore();
  const app = await appWith(t, { content });
  faults.templates = true;
  faults.otherLocales = true;
  const together = await Promise.all(Array.from({ length: 8 }, () => get(app, PRODUCT)));
  t.equal(faults.templateReads, 1, 'concurrent requests share one degraded render');
  const degraded = together[0] as Awaited<ReturnType<typeof get>>;
  t.same(
    together.map((r) => [r.statusCode, r.headers['cache-control'], r.body === degraded.body]),
    Array(8).fill([200, 'private, no-store', true]),
    'each gets the page, without what could not be read, not to be stored',
  );
  t.equal(degraded.headers.etag, undefined, 'not revalidated by ETag');
  await get(app, PRODUCT);
  t.equal(faults.templateReads, 2, 'and it was not kept: the next request renders again');

  faults.templates = false;
  faults.otherLocales = false;
  const whole = await get(app, PRODUCT);
  t.equal(whole.statusCode, 200);
  t.match(whole.headers['cache-control'], /s-maxage/, 'a whole page is public again');
  t.ok(whole.headers.etag, 'and cached');
  t.ok(whole.body.length > degraded.body.length, 'with the parts the fault left out');
  const hreflangs = (body: string) => [...body.matchAll(/hrefLang="/g)].length;
  t.ok(hreflangs(whole.body) > hreflangs(degraded.body), 'the alternates were not memoised while degraded');
});

type Mode = 'pass' | '5xx' | 'garbage' | 'slow';

/**
 * A content service over HTTP in front of the demo store's HTTP face, failing
 * on demand: 5xx, garbage JSON, slow (past the client's timeouts), or refused (not listening).
 */
async function faultyUpstream(t: Test) {
  const face = await demoServer();
  await face.listen({ port: 0, host: '127.0.0.1' });
  const facePort = (face.server.address() as AddressInfo).port;
  const state = { mode: 'pass' as Mode, held: 0 };
  const server: Server = createServer((req, res) => {
    if (state.mode === '5xx') {
      res.writeHead(503, { 'content-type': 'application/json' });
      return res.end('{"error":"down"}');
    }
    if (state.mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"entries":[{"uid":');
    }
    const pass = () => {
      const host = String(req.headers['x-forwarded-host'] ?? HOSTS.uk);
      const upstream = httpRequest(
        { host: '127.0.0.1', port: facePort, path: req.url, headers: { host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, { 'content-type': 'application/json' });
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      upstream.end();
    };
    if (state.mode === 'slow') {
      // Far past every client timeout: the client gives up first however late a loaded machine fires
      // its timers (undici's are coarse), so a slow read is never mistaken for a good one.
      state.held++;
      const timer = setTimeout(pass, 30_000);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    pass();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const refuse = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  const accept = () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  t.teardown(async () => {
    if (server.listening) await refuse();
    await face.close();
  });
  return { url, state, refuse, accept };
}

t.test('over HTTP: slow, 5xx, garbage JSON and refused upstreams', async (t) => {
  const upstream = await faultyUpstream(t);
  // Both caches go stale when the test moves this clock, so each case reads the upstream again.
  let now = 1_000;
  const content = upstreamClient(t, upstream.url, {
    cacheTtlMs: 1,
    staleMs: 0,
    timeouts: { connectMs: 300, headersMs: 300, bodyMs: 300 },
    now: () => now,
  });
  const app = await appWith(t, { content, htmlCacheTtlMs: 1, htmlCacheNow: () => now });
  // Whole, not degraded: on a loaded machine one of its reads can outlast the 300 ms timeouts, and a
  // page built then lacks what it could not read (a degraded page has no ETag), so "as it was" would
  // compare against less than the last good page.
  const good = await until(
    async () => {
      const page = await get(app, PRODUCT);
      return page.headers.etag ? page : undefined;
    },
    { what: 'a whole first read', timeout: 20_000 },
  );
  t.equal(good.statusCode, 200, 'a good read first');

  const cases: { mode: Mode | 'refused'; never: string }[] = [
    { mode: '5xx', never: '/cs/x-200' },
    { mode: 'garbage', never: '/cs/x-300' },
    { mode: 'slow', never: '/cs/x-5810' },
    { mode: 'refused', never: '/cs/x-6020' },
  ];
  for (const { mode, never } of cases) {
    if (mode === 'refused') await upstream.refuse();
    else upstream.state.mode = mode;
    now += 5;
    const last = await get(app, PRODUCT);
    t.equal(last.statusCode, 200, `${mode}: the last good page`);
    t.equal(last.body, good.body, `${mode}: as it was`);
    assertErrorPage(t, await get(app, never), `${mode}: a page never read`);
    t.equal((await get(app, '/healthcheck', 'localhost')).statusCode, 200, `${mode}: health answers`);
    if (mode === 'refused') await upstream.accept();
    upstream.state.mode = 'pass';
  }

  // While one page waits on a slow upstream, others are served meanwhile.
  upstream.state.mode = 'slow';
  const order: string[] = [];
  const held = upstream.state.held;
  const slow = get(app, '/cs/x-7000').then((res) => order.push(`slow ${res.statusCode}`));
  await until(() => upstream.state.held > held, { what: 'the slow read held by the upstream' });
  await get(app, PRODUCT).then((res) => order.push(`cached ${res.statusCode}`));
  await get(app, '/healthcheck', 'localhost').then((res) => order.push(`health ${res.statusCode}`));
  await slow;
  t.same(order, ['cached 200', 'health 200', 'slow 503'], 'the slow page did not hold the others up');
});

t.test('under pressure: pages are shed with 503 and Retry-After, health still answers', async (t) => {
  // Any heap at all is too much: every request after the first sample is shed.
  const app = await appWith(t, { pressure: { maxHeapUsedBytes: 1, sampleInterval: 10, retryAfter: 7 } });
  // Shedding starts with the first sample, whenever the loaded event loop gets to take it.
  const shed = await until(
    async () => {
      const res = await get(app, PRODUCT);
      return res.statusCode === 503 && res;
    },
    { what: 'the first heap sample to shed a page' },
  );
  t.equal(shed.statusCode, 503);
  t.equal(shed.headers['retry-after'], '7');
  t.equal(shed.headers['cache-control'], 'no-store');
  t.match(shed.body, 'Service Unavailable');
  t.equal((await get(app, '/healthcheck', 'localhost')).statusCode, 200, 'health is never shed');
  const image = await get(app, '/images/dishwasher.svg');
  t.equal(image.statusCode, 200, 'nor is a static file: the page that needs it was already sent');
  // A file that is not there is what a client can ask for without end: shed like a page (issue 32).
  for (const miss of ['/images/no-such-file.svg', '/assets/no-such-file.js']) {
    const res = await get(app, miss);
    t.equal(res.statusCode, 503, `${miss}: a miss is shed`);
    t.equal(res.headers['retry-after'], '7');
  }
  const readyz = await get(app, '/readyz', 'localhost');
  t.match(readyz.headers['content-type'], /json/, 'nor is readiness: it answers for itself');
  t.notMatch(readyz.body, /busy/);
  // Routes that answer for any host are shed like pages: GraphQL is where a client can cost most.
  const graphql = await app.inject({ method: 'POST', url: '/graphql', payload: { query: '{ __typename }' } });
  t.equal(graphql.statusCode, 503, 'GraphQL is shed');
  t.equal(graphql.headers['retry-after'], '7');
});

t.test('under pressure: a stalled event loop sheds load', async (t) => {
  const app = await appWith(t, { pressure: { maxEventLoopDelay: 20, sampleInterval: 50 } });
  // Calm is a moment when the loop's last sample was under 20 ms: on a busy machine the process may
  // be descheduled that long, so the page is asked for until such a moment comes (bounded).
  t.ok(
    await until(async () => (await get(app, PRODUCT)).statusCode === 200, { what: 'a calm moment', timeout: 20_000 }),
    'a calm server serves',
  );
  // The sample taken when the loop frees up (between two probes) says "stalled" until the next one.
  const shed = await until(
    async () => {
      const end = Date.now() + 300;
      while (Date.now() < end) {
        // A busy loop: the event loop stalls, as under a flood of renders.
      }
      const res = await get(app, PRODUCT);
      return res.statusCode === 503 && res;
    },
    { what: 'a request shed after a stall', timeout: 20_000 },
  );
  t.ok(shed, 'a request was shed after the stall');
  t.ok(shed.headers['retry-after'], 'with Retry-After');
});
