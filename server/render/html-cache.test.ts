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
