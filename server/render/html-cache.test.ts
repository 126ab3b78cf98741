import t from 'tap';
import { HtmlCache, RenderedPage } from './html-cache.ts';

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
