import { gunzipSync } from 'node:zlib';
import t from 'tap';
import { encodingEtag, HtmlCache, RenderedPage } from './html-cache.ts';

/** A clock the test moves. */
function testClock() {
  let time = 1_000;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

t.test('pages filled together do not all go stale together: lifetimes are spread', async (t) => {
  const clock = testClock();
  // Each fill draws the next point of its spread: 0, 1/40, 2/40, …
  let draws = 0;
  const random = () => draws++ / 40;
  const cache = new HtmlCache({ maxEntries: 100, ttlMs: 2_000, now: clock.now, random });
  const keys = Array.from({ length: 40 }, (_, i) => `page-${i}`);
  const page = new RenderedPage(Buffer.from('<p>x</p>'));
  await Promise.all(keys.map((key) => cache.get(key, async () => page)));
  // Lifetimes lie between 1.8 s and 2.2 s: at 2 s some pages are stale and some are not.
  clock.advance(2_000);
  let refills = 0;
  await Promise.all(
    keys.map((key) =>
      cache.get(key, async () => {
        refills++;
        return page;
      }),
    ),
  );
  t.ok(refills > 0 && refills < keys.length, `${refills} of ${keys.length} re-rendered at the configured lifetime`);
  t.equal(refills, 20, 'exactly those whose lifetime fell short of 2 s');
});

t.test('each lookup is told as a hit, a miss, a stale copy or a wait on a render in flight', async (t) => {
  const seen: string[] = [];
  const clock = testClock();
  const cache = new HtmlCache({ maxEntries: 10, ttlMs: 50, onLookup: (result) => seen.push(result), now: clock.now });
  const page = new RenderedPage(Buffer.from('<p>x</p>'));
  let release: () => void = () => {};
  const slowFill = () =>
    new Promise<RenderedPage>((resolve) => {
      release = () => resolve(page);
    });
  const first = cache.get('a', slowFill);
  const second = cache.get('a', slowFill);
  release();
  await Promise.all([first, second]);
  await cache.get('a', async () => page);
  clock.advance(56); // past the lifetime (50 ms ± 10 %)
  await cache.get('a', async () => page);
  t.same(seen, ['miss', 'coalesced', 'hit', 'stale']);
});

t.test('each encoding of a page has its own validator', async (t) => {
  t.equal(encodingEtag('"abc"', 'identity'), '"abc"');
  t.equal(encodingEtag('"abc"', 'br'), '"abc-br"');
  t.equal(encodingEtag('"abc"', 'gzip'), '"abc-gzip"');
});

t.test("a cached page's headers are worked out once per entry, for every encoding", async (t) => {
  const page = new RenderedPage(Buffer.from('<p>x</p>'), { tags: ['site:a', 'page:1'] });
  t.same(page.tagHeaders, { 'surrogate-key': 'site:a page:1', 'cache-tag': 'site:a,page:1' });
  t.same(page.headers('identity'), { etag: page.etag });
  t.same(page.headers('gzip'), { etag: encodingEtag(page.etag, 'gzip'), 'content-encoding': 'gzip' });
  t.same(page.headers('br'), { etag: encodingEtag(page.etag, 'br'), 'content-encoding': 'br' });
  t.equal(page.headers('br'), page.headers('br'), 'the same object for every request');
  t.ok(Object.isFrozen(page.headers('gzip')) && Object.isFrozen(page.tagHeaders), 'and nobody changes it');
});

t.test('an encoding is compressed once, then handed out without waiting', async (t) => {
  const page = new RenderedPage(Buffer.from('<p>x</p>'.repeat(100)));
  t.equal(page.encodedNow('gzip'), undefined, 'not compressed before anyone asks');
  const gzipped = await page.encoded('gzip');
  t.equal(gunzipSync(gzipped).toString(), '<p>x</p>'.repeat(100));
  t.equal(page.encodedNow('gzip'), gzipped, 'then at hand');
  t.equal(await page.encoded('gzip'), gzipped, 'and never compressed again');
  const br = Buffer.from('already brotli');
  t.equal(new RenderedPage(Buffer.from('<p>x</p>'), { encoded: { br } }).encodedNow('br'), br, 'from the shared tier');
});
