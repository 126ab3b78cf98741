import t from 'tap';
import { createEmbeddedStore } from '../server/content/store.ts';
import { demoServer, HOSTS } from './helpers.ts';

/** Published pages render once, are revalidated by ETag, and follow content changes. */
const PATH = '/cs/kitchen/aquasense-60-dishwasher-4711';

/** A server whose template reads are counted; `failNext` makes the next one fail. */
async function countingServer(options: { htmlCache?: boolean } = {}) {
  const store = createEmbeddedStore({ dir: 'content' });
  let templateReads = 0;
  let failing = 0;
  const content = {
    ...store,
    getEntry: ((...args: Parameters<typeof store.getEntry>) => {
      templateReads++;
      if (failing > 0) {
        failing--;
        return Promise.reject(new Error('template read failed'));
      }
      return store.getEntry(...args);
    }) as typeof store.getEntry,
  };
  const app = await demoServer({ content, ...options });
  return {
    app,
    store,
    reads: () => templateReads,
    failNext: () => {
      failing++;
    },
  };
}

t.test('concurrent misses for one page render it once; later hits render nothing', async (t) => {
  const { app, reads } = await countingServer();
  t.teardown(() => app.close());
  const responses = await Promise.all(
    Array.from({ length: 8 }, () => app.inject({ url: PATH, headers: { host: HOSTS.uk } })),
  );
  t.same(
    responses.map((r) => r.statusCode),
    Array(8).fill(200),
  );
  t.equal(reads(), 1, 'one render for eight concurrent requests');
  await app.inject({ url: PATH, headers: { host: HOSTS.uk } });
  t.equal(reads(), 1, 'a later request is served from the cache');
  t.equal(new Set(responses.map((r) => r.body)).size, 1, 'everyone got the same page');
});

t.test('a matching ETag gets 304; the cached body is precompressed per encoding', async (t) => {
  const app = await demoServer();
  t.teardown(() => app.close());
  const first = await app.inject({ url: PATH, headers: { host: HOSTS.uk } });
  const etag = first.headers.etag as string;
  t.match(etag, /^"[\w-]+"$/);
  t.match(first.headers.vary, /Accept-Encoding/);
  const again = await app.inject({ url: PATH, headers: { host: HOSTS.uk, 'if-none-match': etag } });
  t.equal(again.statusCode, 304);
  t.equal(again.body, '');
  const br = await app.inject({ url: PATH, headers: { host: HOSTS.uk, 'accept-encoding': 'br, gzip' } });
  t.equal(br.headers['content-encoding'], 'br');
  const gz = await app.inject({ url: PATH, headers: { host: HOSTS.uk, 'accept-encoding': 'gzip' } });
  t.equal(gz.headers['content-encoding'], 'gzip');
  t.ok(br.rawPayload.length < first.rawPayload.length / 3, 'compressed well');

  // Each encoding is its own representation, so each has its own strong validator.
  const tags = new Set([etag, br.headers.etag, gz.headers.etag]);
  t.equal(tags.size, 3, 'identity, br and gzip carry distinct ETags');
  const brAgain = await app.inject({
    url: PATH,
    headers: { host: HOSTS.uk, 'accept-encoding': 'br', 'if-none-match': `"other", ${br.headers.etag}` },
  });
  t.equal(brAgain.statusCode, 304, 'the br validator, in a list, revalidates the br copy');
  const crossed = await app.inject({
    url: PATH,
    headers: { host: HOSTS.uk, 'accept-encoding': 'br', 'if-none-match': etag },
  });
  t.equal(crossed.statusCode, 200, 'the identity validator does not stand for the br copy');
});

t.test(
  'a percent-encoding spelling of a page redirects to its one spelling, never a cache entry of its own',
  async (t) => {
    const app = await demoServer();
    t.teardown(() => app.close());
    const cases: [string, string][] = [
      ['/cs/kitchen/aquasense-60-dish%77asher-4711', PATH],
      ['/cs/kitchen/aquasense-60-dish%77asher-4711?x=1', `${PATH}?x=1`],
      ['/cs/kitchen/aquasense-60-dish%77asher-4711/_payload.json', `${PATH}/_payload.json`],
      ['/%63s/kitchen/aquasense%2D60-dishwasher-4711', PATH],
    ];
    for (const [spelling, location] of cases) {
      const res = await app.inject({ url: spelling, headers: { host: HOSTS.uk } });
      t.equal(res.statusCode, 301, spelling);
      t.equal(res.headers.location, location, spelling);
    }
  },
);

t.test('the cache follows content changes and never holds preview or error responses', async (t) => {
  const { app, store, reads } = await countingServer();
  t.teardown(() => app.close());
  await app.inject({ url: PATH, headers: { host: HOSTS.uk } });
  store.changes.announce({ origin: 'revalidate' });
  await app.inject({ url: PATH, headers: { host: HOSTS.uk } });
  t.equal(reads(), 2, 'invalidation makes the next request render again');
  const before = reads();
  await app.inject({ url: `${PATH}?live_preview=abc`, headers: { host: HOSTS.uk } });
  await app.inject({ url: `${PATH}?live_preview=abc`, headers: { host: HOSTS.uk } });
  t.equal(reads(), before + 2, 'preview renders every time');
  const missing = await app.inject({ url: '/cs/nope-999', headers: { host: HOSTS.uk } });
  t.equal(missing.statusCode, 404);
  t.equal(missing.headers.etag, undefined);
});

t.test('unkeyed headers on a first request do not change what a later clean request gets', async (t) => {
  const app = await demoServer();
  t.teardown(() => app.close());
  const poisoned = await app.inject({
    url: PATH,
    headers: {
      host: HOSTS.uk,
      'x-forwarded-host': 'evil.example',
      'x-original-url': '/admin',
      'x-rewrite-url': '/admin',
      accept: 'text/evil',
    },
  });
  t.notMatch(poisoned.body, 'evil.example');
  const clean = await app.inject({ url: PATH, headers: { host: HOSTS.uk } });
  t.equal(clean.body, poisoned.body);
});

t.test(
  'with the HTML cache off, every request renders but a page is assembled once until content changes',
  async (t) => {
    const { app, store, reads } = await countingServer({ htmlCache: false });
    t.teardown(() => app.close());
    const bodies: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await app.inject({ url: PATH, headers: { host: HOSTS.uk } });
      t.equal(response.statusCode, 200);
      t.equal(response.headers.etag, undefined, 'rendered, not served from the HTML cache');
      bodies.push(response.body);
    }
    t.equal(reads(), 1, 'loaded and assembled once');
    t.equal(new Set(bodies).size, 1, 'every render of the kept page is the same page');
    store.changes.announce({ origin: 'revalidate' });
    await app.inject({ url: PATH, headers: { host: HOSTS.uk } });
    t.equal(reads(), 2, 'a content change assembles it again');
    await app.inject({ url: `${PATH}?live_preview=abc`, headers: { host: HOSTS.uk } });
    t.equal(reads(), 3, 'preview is never taken from the memo');
  },
);

t.test('a page assembled while a read failed is served but not kept', async (t) => {
  const { app, reads, failNext } = await countingServer({ htmlCache: false });
  t.teardown(() => app.close());
  failNext();
  const degraded = await app.inject({ url: PATH, headers: { host: HOSTS.uk } });
  t.equal(degraded.statusCode, 200, 'served without its template');
  const whole = await app.inject({ url: PATH, headers: { host: HOSTS.uk } });
  t.equal(reads(), 2, 'the next request loads again');
  t.not(whole.body, degraded.body, 'and gets the whole page');
  await app.inject({ url: PATH, headers: { host: HOSTS.uk } });
  t.equal(reads(), 2, 'which is then kept');
});

t.test('a cached page carries its whole header set in every encoding, on 304 and HEAD as well', async (t) => {
  const app = await demoServer();
  t.teardown(() => app.close());
  await app.inject({ url: PATH, headers: { host: HOSTS.uk } });
  const encodings: [string, string | undefined][] = [
    ['', undefined],
    ['br, gzip', 'br'],
    ['gzip', 'gzip'],
  ];
  const etags = new Set<string>();
  for (const [acceptEncoding, encoding] of encodings) {
    const headers = { host: HOSTS.uk, 'accept-encoding': acceptEncoding };
    const get = await app.inject({ url: PATH, headers });
    const label = encoding ?? 'identity';
    t.equal(get.statusCode, 200, label);
    t.equal(get.headers['content-encoding'], encoding, `${label}: content-encoding`);
    t.equal(get.headers['content-type'], 'text/html; charset=utf-8', `${label}: content-type`);
    t.equal(get.headers['cache-control'], 'public, max-age=0, s-maxage=300, stale-while-revalidate=3600', label);
    t.equal(get.headers.vary, 'ECT, Save-Data, Accept-Encoding', `${label}: vary`);
    t.equal(get.headers['accept-ch'], 'ECT, Save-Data', `${label}: accept-ch`);
    t.equal(get.headers['speculation-rules'], '"/builds/speculation-rules.json"', `${label}: speculation-rules`);
    t.match(get.headers['surrogate-key'], /site:www\.halden\.co\.uk page:4711/, `${label}: surrogate-key`);
    t.match(get.headers['cache-tag'], /site:www\.halden\.co\.uk,page:4711/, `${label}: cache-tag`);
    t.match(get.headers['content-security-policy'], /default-src 'self'/, `${label}: security headers`);
    t.match(get.headers['x-request-id'], /^[\w-]+$/, `${label}: request id`);
    t.equal(get.headers['content-length'], String(get.rawPayload.length), `${label}: content-length`);
    const etag = get.headers.etag as string;
    etags.add(etag);

    const head = await app.inject({ method: 'HEAD', url: PATH, headers });
    t.equal(head.statusCode, 200, `${label}: HEAD`);
    t.equal(head.rawPayload.length, 0, `${label}: HEAD has no body`);
    const { 'x-request-id': _getId, date: _getDate, ...getRest } = get.headers;
    const { 'x-request-id': _headId, date: _headDate, ...headRest } = head.headers;
    t.same(headRest, getRest, `${label}: HEAD carries GET's headers`);

    const revalidated = await app.inject({ url: PATH, headers: { ...headers, 'if-none-match': etag } });
    t.equal(revalidated.statusCode, 304, `${label}: 304`);
    t.equal(revalidated.rawPayload.length, 0, `${label}: 304 has no body`);
    t.equal(revalidated.headers.etag, etag, `${label}: 304 names its validator`);
    t.equal(revalidated.headers.vary, 'ECT, Save-Data, Accept-Encoding', `${label}: 304 vary`);
    t.equal(revalidated.headers['cache-control'], get.headers['cache-control'], `${label}: 304 cache-control`);
    t.equal(revalidated.headers['content-encoding'], undefined, `${label}: 304 names no encoding`);
    t.equal(revalidated.headers['content-length'], undefined, `${label}: 304 has no content-length`);
  }
  t.equal(etags.size, 3, 'a validator per encoding');

  const saveData = await app.inject({ url: PATH, headers: { host: HOSTS.uk, 'save-data': 'on' } });
  t.equal(saveData.statusCode, 200);
  t.equal(saveData.headers['speculation-rules'], undefined, 'no speculation rules for a visitor saving data');
  t.equal(saveData.headers.vary, 'ECT, Save-Data, Accept-Encoding');
});
