import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { until } from '../../test/until.ts';
import { ContentError } from './service.ts';
import { createUpstreamContentService, type UpstreamContentOptions } from './upstream.ts';

/** What the fake upstream holds; tests change it between reads. */
interface Upstream {
  pages: Record<string, unknown[]>;
  entries: Record<string, unknown>;
  configs: Record<string, unknown>;
  /** Answer every request with this status instead. */
  failWith?: number;
  /** Answer every request with this body instead. */
  rawBody?: string;
}

interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
}

const page = (uuid: string, title: string) => ({
  uid: `page-${uuid}`,
  uuid,
  locale: 'de-CH',
  title,
  slug: 'page',
  template: [{ _content_type_uid: 'page_template', uid: 'tpl-1' }],
  url_taxonomy: [],
});
const template = { uid: 'tpl-1', header_components: [], body_components: [], footer_components: [] };
const config = (title: string) => ({ globals: { dhfIsEnabled: true }, navigation: { header: { title, links: [] } } });

async function startUpstream(t: Test, data: Partial<Upstream> = {}) {
  const state: Upstream = { pages: {}, entries: {}, configs: {}, ...data };
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    const url = new URL(req.url ?? '/', 'http://upstream');
    const language = url.searchParams.get('language');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(state.rawBody ?? JSON.stringify(body));
    };
    if (state.failWith) return send(state.failWith, { error: 'down' });
    if (url.pathname === '/_applicationConfiguration') {
      const found = state.configs[`${req.headers['x-forwarded-host']}/${language}`];
      return found ? send(200, found) : send(404, { error: 'unknown host' });
    }
    const [, cs, api, name, type, uid] = url.pathname.split('/');
    if (cs !== 'cs' || api !== 'api' || name !== 'contentstack') return send(404, { error: 'no route' });
    if (type === 'pages') return send(200, { entries: state.pages[`${language}/${uid}`] ?? [] });
    const entry = state.entries[`${language}/${type}/${uid}`];
    return entry ? send(200, { entry }) : send(404, { error: 'no entry' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { origin, state, seen };
}

function service(t: Test, origin: string, options: Partial<UpstreamContentOptions> = {}) {
  const s = createUpstreamContentService({ ...baseOptions(origin), ...options });
  t.teardown(() => s.close());
  return s;
}

t.test('pages, entries and their absence', async (t) => {
  const { origin, seen } = await startUpstream(t, {
    pages: { 'de-CH/125': [page('125', 'Home')] },
    entries: { 'de-CH/page_template/tpl-1': template },
  });
  const s = service(t, origin);
  t.match(await s.getPage('125', 'de-CH'), { uuid: '125', title: 'Home' });
  t.equal(await s.getPage('999', 'de-CH'), null, 'an empty entries list is null');
  t.same(await s.getEntry('page_template', 'tpl-1', 'de-CH'), template);
  t.equal(await s.getEntry('page_template', 'missing', 'de-CH'), null, 'a 404 entry is null');
  t.equal(await s.hasPage('125', 'de-CH'), true);
  t.equal(await s.hasPage('999', 'de-CH'), false);
  t.same(
    seen.map((r) => r.url),
    [
      '/cs/api/contentstack/pages/125?language=de-CH',
      '/cs/api/contentstack/pages/999?language=de-CH',
      '/cs/api/contentstack/page_template/tpl-1?language=de-CH',
      '/cs/api/contentstack/page_template/missing?language=de-CH',
    ],
    'hasPage reuses the cached reads',
  );
});

t.test('the application configuration is read per forwarded host', async (t) => {
  const { origin, seen } = await startUpstream(t, {
    configs: { 'www.halden.ch/de-CH': config('CH'), 'www.halden.de/de-DE': config('DE') },
  });
  const s = service(t, origin);
  t.match(await s.getApplicationConfiguration('www.halden.ch', 'de-CH'), { navigation: { header: { title: 'CH' } } });
  t.match(await s.getApplicationConfiguration('www.halden.de', 'de-DE'), { navigation: { header: { title: 'DE' } } });
  t.match(await s.getApplicationConfiguration('www.halden.ch', 'de-CH'), { navigation: { header: { title: 'CH' } } });
  t.same(
    seen.map((r) => [r.url, r.headers['x-forwarded-host']]),
    [
      ['/_applicationConfiguration?language=de-CH', 'www.halden.ch'],
      ['/_applicationConfiguration?language=de-DE', 'www.halden.de'],
    ],
  );
  const err = await s.getApplicationConfiguration('www.unknown.ch', 'de-CH').catch((e: unknown) => e);
  t.ok(err instanceof ContentError);
  t.match(err, { code: 'CONTENT_UPSTREAM', where: `${origin}/_applicationConfiguration?language=de-CH` });
  t.match((err as Error).message, /404 Not Found/);
});

t.test('identical concurrent reads make one request; later reads hit the cache', async (t) => {
  const { origin, seen } = await startUpstream(t, { pages: { 'de-CH/7': [page('7', 'Seven')] } });
  const s = service(t, origin);
  const [a, b] = await Promise.all([s.getPage('7', 'de-CH'), s.getPage('7', 'de-CH')]);
  t.equal(a, b, 'both callers get the same object');
  t.equal(seen.length, 1, 'one upstream request for two concurrent reads');
  t.equal(await s.getPage('7', 'de-CH'), a, 'cache hit');
  t.equal(seen.length, 1, 'no request for a cache hit');
  t.ok(Object.isFrozen(a), 'the shared object is frozen');
});

t.test('the cache is bounded: the least recently used read leaves first', async (t) => {
  const { origin, seen } = await startUpstream(t, {
    pages: { 'de-CH/1': [page('1', 'One')], 'de-CH/2': [page('2', 'Two')], 'de-CH/3': [page('3', 'Three')] },
  });
  const s = service(t, origin, { maxEntries: 2 });
  await s.getPage('1', 'de-CH');
  await s.getPage('2', 'de-CH');
  await s.getPage('1', 'de-CH');
  await s.getPage('3', 'de-CH');
  t.equal(seen.length, 3, 'page 1 was a hit');
  await s.getPage('1', 'de-CH');
  t.equal(seen.length, 3, 'page 1 stayed, being recently used');
  await s.getPage('2', 'de-CH');
  t.equal(seen.length, 4, 'page 2 was evicted');
});

/** Page 7 read as "Old", then changed upstream to "New" while the clock passes its 30 ms lifetime. */
async function changedPastLifetime(t: Test, staleMs: number) {
  const { origin, state, seen } = await startUpstream(t, { pages: { 'de-CH/7': [page('7', 'Old')] } });
  let now = 1_000;
  const s = service(t, origin, { cacheTtlMs: 30, staleMs, now: () => now });
  t.match(await s.getPage('7', 'de-CH'), { title: 'Old' });
  state.pages['de-CH/7'] = [page('7', 'New')];
  now += 50; // past the 30 ms lifetime (±10 %)
  return { s, seen };
}

t.test('within the stale window a stale read is served at once and refreshed behind', async (t) => {
  const { s, seen } = await changedPastLifetime(t, 60_000);
  t.match(await s.getPage('7', 'de-CH'), { title: 'Old' }, 'stale value at once');
  // The refresh runs behind the answer: it lands when the upstream has answered, however long that takes.
  await until(async () => (await s.getPage('7', 'de-CH'))?.title === 'New', { what: 'the refresh behind' });
  t.pass('refreshed behind the stale answer');
  t.equal(seen.length, 2);
});

t.test('beyond the stale window a read waits for the fresh value', async (t) => {
  const { s, seen } = await changedPastLifetime(t, 0);
  t.match(await s.getPage('7', 'de-CH'), { title: 'New' });
  t.equal(seen.length, 2);
});

t.test('an upstream fault after a good read serves the last good value, and says so in the log', async (t) => {
  const { origin, state, seen } = await startUpstream(t, { pages: { 'de-CH/7': [page('7', 'Good')] } });
  const warnings: { details: object; message: string }[] = [];
  const logger = { warn: (details: object, message: string) => warnings.push({ details, message }) };
  let now = 1_000;
  const s = service(t, origin, { cacheTtlMs: 30, staleMs: 0, logger, now: () => now });
  t.match(await s.getPage('7', 'de-CH'), { title: 'Good' });
  state.failWith = 503;
  now += 50; // past the 30 ms lifetime (±10 %)
  t.match(await s.getPage('7', 'de-CH'), { title: 'Good' }, 'last good value');
  t.equal(seen.length, 3, 'the first read, then one failed refresh retried once');
  t.equal(warnings.length, 1);
  t.match(warnings[0], {
    details: { where: `${origin}/cs/api/contentstack/pages/7?language=de-CH`, err: { code: 'CONTENT_UPSTREAM' } },
    message: /last good value/,
  });
  state.failWith = undefined;
  state.pages['de-CH/7'] = [page('7', 'Recovered')];
  t.match(await s.getPage('7', 'de-CH'), { title: 'Recovered' }, 'the next read tries again');
});

t.test('an upstream fault without a good read is a ContentError, and is not cached', async (t) => {
  const { origin, state } = await startUpstream(t, { failWith: 502, pages: { 'de-CH/7': [page('7', 'Up')] } });
  const s = service(t, origin);
  const err = await s.getPage('7', 'de-CH').catch((e: unknown) => e);
  t.ok(err instanceof ContentError);
  t.match(err, {
    code: 'CONTENT_UPSTREAM',
    where: `${origin}/cs/api/contentstack/pages/7?language=de-CH`,
    message: /502 Bad Gateway/,
    cause: { name: 'HttpError', status: 502 },
  });
  state.failWith = undefined;
  t.match(await s.getPage('7', 'de-CH'), { title: 'Up' });
});

t.test('hasPage treats an upstream fault as absent, and logs it', async (t) => {
  const { origin } = await startUpstream(t, { failWith: 500 });
  const warnings: object[] = [];
  const s = service(t, origin, { logger: { warn: (details) => warnings.push(details) } });
  t.equal(await s.hasPage('7', 'de-CH'), false);
  t.match(warnings, [{ uuid: '7', locale: 'de-CH', err: { code: 'CONTENT_UPSTREAM' } }]);
});

t.test('an answer that is not the content API is an upstream fault', async (t) => {
  const { origin, state } = await startUpstream(t, { rawBody: '{"entry":{}}' });
  const s = service(t, origin);
  await t.rejects(s.getPage('7', 'de-CH'), { code: 'CONTENT_UPSTREAM', message: /entries list/ });
  state.rawBody = 'not json';
  await t.rejects(s.getPage('8', 'de-CH'), { code: 'CONTENT_UPSTREAM', message: /not valid JSON/ });
  state.rawBody = '{"entries":[{"__proto__":{"polluted":true}}]}';
  await t.rejects(s.getPage('9', 'de-CH'), { code: 'CONTENT_UPSTREAM', message: /not valid JSON/ });
});

t.test('malformed content is read tolerantly, like the store, and reported with the URL and field', async (t) => {
  const { origin } = await startUpstream(t, {
    pages: { 'de-CH/7': [{ ...page('7', 'No template'), template: 'oops', uuid: undefined }] },
    entries: { 'de-CH/page_template/bad': { uid: 'bad', header_components: 'oops' } },
    configs: { 'www.halden.ch/de-CH': { globals: { dhfIsEnabled: 'yes' }, navigation: {} } },
  });
  const warnings: { where: string; path: string }[] = [];
  const s = service(t, origin, { logger: { warn: (details) => warnings.push(details as never) } });
  t.match(await s.getPage('7', 'de-CH'), { uuid: '7', template: [] });
  t.match(await s.getEntry('page_template', 'bad', 'de-CH'), { uid: 'bad', header_components: [] });
  t.match(await s.getApplicationConfiguration('www.halden.ch', 'de-CH'), { globals: { dhfIsEnabled: false } });
  t.match(warnings, [
    { where: `${origin}/cs/api/contentstack/pages/7?language=de-CH`, path: '$.template[0]' },
    { where: /page_template\/bad/, path: '$.header_components' },
    { where: /_applicationConfiguration/, path: '$.globals.dhfIsEnabled' },
  ]);
});

t.test('preview reads carry the hash, are de-duplicated, and are never cached', async (t) => {
  const { origin, state, seen } = await startUpstream(t, { pages: { 'de-CH/7': [page('7', 'Draft 1')] } });
  const s = service(t, origin);
  const [a, b] = await Promise.all([s.getPage('7', 'de-CH', 'h4sh'), s.getPage('7', 'de-CH', 'h4sh')]);
  t.equal(a, b);
  t.equal(seen.length, 1, 'concurrent preview reads share one request');
  state.pages['de-CH/7'] = [page('7', 'Draft 2')];
  t.match(await s.getPage('7', 'de-CH', 'h4sh'), { title: 'Draft 2' }, 'not cached');
  t.match(await s.getPage('7', 'de-CH'), { title: 'Draft 2' }, 'a published read does not see a preview read');
  await s.getEntry('page_template', 'tpl', 'de-CH', 'h4sh');
  await s.getPage('7', 'de-CH', '../not-a-hash');
  t.same(
    seen.map((r) => r.url),
    [
      '/cs/api/contentstack/pages/7?language=de-CH&live_preview=h4sh',
      '/cs/api/contentstack/pages/7?language=de-CH&live_preview=h4sh',
      '/cs/api/contentstack/pages/7?language=de-CH',
      '/cs/api/contentstack/page_template/tpl?language=de-CH&live_preview=h4sh',
    ],
    'a hash that cannot name a preview reads published content, here from the cache',
  );
});

t.test('input that cannot name content is refused without a request', async (t) => {
  const { origin, seen } = await startUpstream(t);
  const s = service(t, origin);
  for (const uuid of ['../x', '', '12345678901', '1a', '1/2', '%2e%2e']) {
    t.equal(await s.getPage(uuid, 'de-CH'), null, `uuid ${JSON.stringify(uuid)}`);
  }
  t.equal(await s.hasPage('../x', 'de-CH'), false);
  t.equal(await s.getEntry('pages', '7', 'de-CH'), null, 'pages are not read through the entry door');
  for (const locale of ['de', 'de-ch', '../de-CH', 'de-CH/x']) {
    t.equal(await s.getPage('1', locale), null, `locale ${JSON.stringify(locale)}`);
  }
  for (const [type, uid] of [
    ['page_template', '../x'],
    ['../x', 'a'],
    ['a/b', 'c'],
    ['page_template', 'a?b'],
    ['page_template', ''],
  ] as const) {
    t.equal(await s.getEntry(type, uid, 'de-CH'), null, `entry ${type} ${uid}`);
  }
  await t.rejects(s.getApplicationConfiguration('evil\r\nx-injected: 1', 'de-CH'), RangeError);
  await t.rejects(s.getApplicationConfiguration('www.halden.ch', '../de'), RangeError);
  t.equal(seen.length, 0);
  t.throws(() => createUpstreamContentService({ ...baseOptions(origin), contentServiceName: '../admin' }), TypeError);
});

t.test('the content service name is configurable', async (t) => {
  const { origin, seen } = await startUpstream(t);
  const s = service(t, origin, { contentServiceName: 'other' });
  await t.rejects(
    s.getPage('1', 'de-CH'),
    { code: 'CONTENT_UPSTREAM' },
    'a 404 for a page is a wrong URL, not a missing page',
  );
  t.equal(seen[0]?.url, '/cs/api/other/pages/1?language=de-CH');
});

function baseOptions(origin: string): UpstreamContentOptions {
  return { contentServiceUrl: origin, appConfigUrl: origin, cacheTtlMs: 60_000, staleMs: 60_000, maxEntries: 100 };
}
