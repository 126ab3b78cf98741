import type { BrowserContextOptions, Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { DESKTOP, waitForIsland } from './browser.ts';
import { startSuite } from './server.ts';

const DISHWASHER = '/cs/kitchen/aquasense-60-dishwasher-4711';

declare global {
  interface Window {
    __scrollListeners?: { passive: boolean }[];
  }
}

const { server, browser } = await startSuite(t);

/**
 * Opens the dishwasher page in a context whose init script (run before any page script) wraps
 * window.addEventListener and records every 'scroll' registration in window.__scrollListeners.
 */
async function dishwasher(t: Test, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP, ...options });
  t.teardown(() => context.close());
  await context.addInitScript(() => {
    const registrations: { passive: boolean }[] = [];
    window.__scrollListeners = registrations;
    const original = window.addEventListener;
    window.addEventListener = function (
      this: Window,
      type: string,
      listener: EventListenerOrEventListenerObject,
      options?: boolean | AddEventListenerOptions,
    ) {
      if (type === 'scroll') registrations.push({ passive: typeof options === 'object' && options.passive === true });
      return original.call(this, type, listener, options);
    } as typeof window.addEventListener;
  });
  const page = await context.newPage();
  const response = await page.goto(server.url('uk', DISHWASHER));
  t.equal(response?.status(), 200, 'the dishwasher page answers 200');
  return page;
}

const transformOf = (page: Page) =>
  page.locator('section.parallax img.parallax-image').evaluate((img) => (img as HTMLImageElement).style.transform);

/** The image's transform once it is other than `from`; after 5 s, as it is, for the caller's assertion to name. */
async function transformOtherThan(page: Page, from: string): Promise<string> {
  await page
    .waitForFunction(
      (from) => (document.querySelector('img.parallax-image') as HTMLImageElement | null)?.style.transform !== from,
      from,
      { timeout: 5_000 },
    )
    .catch(() => undefined);
  return transformOf(page);
}

/** Scrolls by `dy` and lets two animation frames pass (the effect is rAF-throttled). */
async function scrollBy(page: Page, dy: number): Promise<void> {
  await page.evaluate(async (dy) => {
    window.scrollBy(0, dy);
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  }, dy);
}

async function bringIntoView(t: Test, page: Page): Promise<void> {
  const banner = page.locator('section.parallax');
  t.equal(await banner.count(), 1, 'the page has a parallax banner');
  await banner.scrollIntoViewIfNeeded();
  await waitForIsland(page, 'parallax');
  t.pass('the parallax island hydrated once scrolled into view');
}

t.test('the parallax image moves when the page scrolls', async (t) => {
  const page = await dishwasher(t);
  await bringIntoView(t, page);
  // Effects run after the hydrated island's first paint, not with hydration itself.
  await page
    .waitForFunction(() => (window.__scrollListeners ?? []).length > 0, undefined, { timeout: 5_000 })
    .catch(() => undefined);
  const listeners = await page.evaluate(() => window.__scrollListeners ?? []);
  t.ok(listeners.length >= 1, 'a scroll listener is registered on window');
  t.ok(
    listeners.some((l) => l.passive),
    'the scroll listener is passive',
  );

  const before = await transformOf(page);
  await scrollBy(page, 120);
  const after = await transformOtherThan(page, before);
  t.not(after, before, `the transform changes on scroll (${before || 'none'} → ${after || 'none'})`);

  await scrollBy(page, -240);
  t.not(await transformOtherThan(page, after), after, 'and changes again when scrolling back');
});

t.test('with reduced motion the image never moves and no scroll listener is registered', async (t) => {
  const page = await dishwasher(t, { reducedMotion: 'reduce' });
  t.ok(
    await page.evaluate(() => window.matchMedia('(prefers-reduced-motion: reduce)').matches),
    'the page sees prefers-reduced-motion: reduce',
  );
  t.ok(await page.evaluate(() => Array.isArray(window.__scrollListeners)), 'the listener probe is installed');
  await bringIntoView(t, page);

  const initial = await transformOf(page);
  for (const dy of [150, 150, -300, 400, -100]) {
    await scrollBy(page, dy);
    t.equal(await transformOf(page), initial, `the transform stays ${JSON.stringify(initial)} after scrolling ${dy}px`);
  }
  t.same(await page.evaluate(() => window.__scrollListeners ?? []), [], 'no scroll listener was registered on window');
});
