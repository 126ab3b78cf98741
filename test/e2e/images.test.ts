import { mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Response } from 'playwright-core';
import t from 'tap';
import { until } from '../until.ts';
import { launchBrowser, openPage } from './browser.ts';
import { ROOT, startServer } from './server.ts';

/**
 * What a phone gets of a product page's images (issue 34): variants sized for its screen, in a
 * format it takes, the hero fetched once (its preload and its <img> name the same srcset), and
 * image bytes at most a third of the original photographs'.
 */
t.setTimeout(300_000);

const server = await startServer({ IMAGE_CACHE_DIR: await mkdtemp(join(tmpdir(), 'vitrine-e2e-images-')) });
t.teardown(() => server.stop());
const browser = await launchBrowser();
t.teardown(() => browser.close());
const PRODUCT = '/cs/kitchen/aquasense-60-dishwasher-4711';
const PHONE = { width: 390, height: 844 };

interface Fetched {
  url: string;
  type: string;
  vary: string;
  bytes: number;
}

/** Opens the page and scrolls to its end so every lazy image loads; returns every image response. */
async function imagesOf(page: Page): Promise<Fetched[]> {
  const responses: Promise<Fetched>[] = [];
  page.on('response', (response: Response) => {
    if (response.request().resourceType() !== 'image') return;
    responses.push(
      response.body().then((body) => ({
        url: new URL(response.url()).pathname,
        type: response.headers()['content-type'] ?? '',
        vary: response.headers().vary ?? '',
        bytes: body.length,
      })),
    );
  });
  await page.goto(server.url('uk', PRODUCT), { waitUntil: 'load' });
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += innerHeight / 2) {
      scrollTo(0, y);
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    }
  });
  await page.waitForFunction(() => [...document.images].every((image) => image.complete && image.naturalWidth > 0));
  await page.waitForLoadState('networkidle');
  return Promise.all(responses);
}

/** The bytes of the original files behind the page's images (`/images/{name}` on disk). */
async function originalBytes(page: Page): Promise<number> {
  const names = await page.evaluate(() => [
    ...new Set([...document.images].map((image) => new URL(image.src).pathname)),
  ]);
  let total = 0;
  for (const name of names) total += (await stat(join(ROOT, 'public', name))).size;
  return total;
}

/** Until every one of these variant URLs is kept on the server (a first visit may get originals while it is made). */
async function allKept(urls: string[]): Promise<void> {
  await until(
    async () => {
      for (const url of urls) {
        const answer = await fetch(`${server.origin}${url}`, {
          headers: { host: `uk.localhost:${server.port}`, accept: 'image/avif,image/webp,*/*' },
        });
        await answer.arrayBuffer();
        if (answer.headers.get('cache-control') !== 'public, max-age=31536000, immutable') return false;
      }
      return true;
    },
    { what: 'the variants to be made', timeout: 120_000, every: 200 },
  );
}

for (const dpr of [2, 3]) {
  t.test(`at 390 px, DPR ${dpr}: AVIF variants of the right width, a third of the originals at most`, async (t) => {
    // First visit: variants are made as they are asked for; no image may be missing meanwhile.
    const first = await openPage(browser, { viewport: PHONE, deviceScaleFactor: dpr });
    const cold = await imagesOf(first.page);
    const coldBytes = cold.reduce((sum, f) => sum + f.bytes, 0);
    const variantUrls = cold.filter((f) => f.url.startsWith('/img/')).map((f) => f.url);
    await first.close();
    await allKept(variantUrls);

    const { page, close } = await openPage(browser, { viewport: PHONE, deviceScaleFactor: dpr });
    t.teardown(close);
    const fetched = await imagesOf(page);
    const variants = fetched.filter((f) => f.url.startsWith('/img/'));
    t.ok(variants.length >= 4, `the hero and the teasers through the image route (${variants.length})`);
    for (const variant of variants) {
      t.equal(variant.type, 'image/avif', `${variant.url}: Chromium takes AVIF`);
      t.match(variant.vary, /\bAccept\b/);
    }
    t.same(
      fetched.filter((f) => /\/images\/.*\.jpg$/.test(f.url)).map((f) => f.url),
      [],
      'no original photograph is fetched',
    );

    // The hero fills the screen: the smallest fixed width covering 390 px at this density.
    const hero = await page.evaluate(() => {
      const image = document.querySelector<HTMLImageElement>('img.hero-image');
      return { current: new URL(image?.currentSrc ?? '').pathname, width: image?.getBoundingClientRect().width ?? 0 };
    });
    const needed = hero.width * dpr;
    const chosen = Number(/^\/img\/(\d+)\//.exec(hero.current)?.[1]);
    t.ok(chosen >= needed && chosen < 2000, `hero ${hero.width} css px × ${dpr}: the ${chosen} variant`);
    t.equal(
      fetched.filter((f) => f.url.endsWith('/dishwasher.jpg')).length,
      1,
      'the hero is fetched once: its preload and its <img> agree',
    );

    const sent = fetched.reduce((sum, f) => sum + f.bytes, 0);
    const originals = await originalBytes(page);
    const percent = (bytes: number) => Math.round((100 * bytes) / originals);
    t.comment(
      `390 px × DPR ${dpr}: images ${sent} bytes (${fetched.length} files) against ${originals} bytes of originals: ${percent(sent)}% (first visit, variants being made: ${coldBytes} bytes, ${percent(coldBytes)}%)`,
    );
    t.ok(sent * 3 <= originals, `image bytes at most a third of the originals (${sent} of ${originals})`);
  });
}

t.test('a browser that names neither AVIF nor WebP gets JPEG at the same URLs', async (t) => {
  const { page, close } = await openPage(browser, {
    viewport: PHONE,
    deviceScaleFactor: 2,
    extraHTTPHeaders: { accept: 'image/jpeg,*/*;q=0.5' },
  });
  t.teardown(close);
  const variants = (await imagesOf(page)).filter((f) => f.url.startsWith('/img/'));
  t.ok(variants.length >= 4);
  for (const variant of variants) t.equal(variant.type, 'image/jpeg', variant.url);
});
