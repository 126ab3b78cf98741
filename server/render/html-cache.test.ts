import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { HtmlCache, RenderedPage } from './html-cache.ts';

t.test('pages filled together do not all go stale together: lifetimes are spread', async (t) => {
  const cache = new HtmlCache({ maxEntries: 100, ttlMs: 2_000 });
  const keys = Array.from({ length: 40 }, (_, i) => `page-${i}`);
  const page = new RenderedPage(Buffer.from('<p>x</p>'));
  await Promise.all(keys.map((key) => cache.get(key, async () => page)));
  // Lifetimes lie between 1.8 s and 2.2 s: at 2 s some pages are stale and some are not.
  await sleep(2_000);
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
});

t.test('each lookup is told as a hit, a miss, a stale copy or a wait on a render in flight', async (t) => {
  const seen: string[] = [];
  const cache = new HtmlCache({ maxEntries: 10, ttlMs: 50, onLookup: (result) => seen.push(result) });
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
  await sleep(120); // past the lifetime (50 ms ± 10 %)
  await cache.get('a', async () => page);
  t.same(seen, ['miss', 'coalesced', 'hit', 'stale']);
});
