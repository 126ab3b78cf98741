import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Frame,
  type Page,
  type Request,
} from 'playwright-core';
import { currentGroup } from './group.ts';

/** Debian's Chromium; never a downloaded one. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const NARROW = { width: 375, height: 812 } as const;
export const DESKTOP = { width: 1280, height: 900 } as const;

/**
 * Chromium for one test file. In a group of files (test/e2e/together.ts) they share one Chromium:
 * the file gets a handle whose `close` closes only the contexts it opened, so each file still starts
 * from fresh contexts (own cookies, storage and cache).
 */
export async function launchBrowser(): Promise<Browser> {
  const group = currentGroup();
  if (!group) return launch();
  group.browser ??= launch();
  return borrow(await group.browser);
}

function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

function borrow(browser: Browser): Browser {
  const opened = new Set<BrowserContext>();
  const newContext = async (options?: BrowserContextOptions) => {
    const context = await browser.newContext(options);
    opened.add(context);
    context.once('close', () => opened.delete(context));
    return context;
  };
  const own: Partial<Browser> = {
    newContext,
    // Like Browser.newPage: a context of its own, closed with the page.
    newPage: async (options?: BrowserContextOptions) => {
      const context = await newContext(options);
      const page = await context.newPage();
      page.once('close', () => void context.close());
      return page;
    },
    contexts: () => [...opened],
    close: async () => {
      await Promise.all([...opened].map((context) => context.close()));
    },
  };
  return new Proxy(browser, {
    get(target, property, receiver) {
      if (property in own) return own[property as keyof Browser];
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** A fresh context (own cookies) and page; the context closes with the caller's teardown. */
export async function openPage(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: DESKTOP, ...options });
  const page = await context.newPage();
  return { page, close: () => context.close() };
}

/** Every request the page makes from now on. */
export function recordRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  return requests;
}

/** The path of a request's URL, without query or hash. */
export function pathOf(request: Request): string {
  return new URL(request.url()).pathname;
}

/** Scripts among recorded requests: by resource type or by a `.js`/`.mjs` file name. */
export function scriptRequests(requests: readonly Request[]): string[] {
  return requests
    .filter((r) => r.resourceType() === 'script' || /\.m?js$/i.test(pathOf(r)))
    .map((r) => `${r.resourceType()} ${r.url()}`);
}

/**
 * Records every layout shift the page reports from its first paint on (not those right after input,
 * which the metric leaves out too), for `layoutShifts`. Call before `goto`.
 */
export async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const sources: (Node | undefined)[] = [];
    Object.assign(window, { __layoutShiftSources: sources });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        hadRecentInput: boolean;
        sources: { node?: Node }[];
      })[])
        if (!entry.hadRecentInput) sources.push(...entry.sources.map((source) => source.node));
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/**
 * What moved so far, as `TAG.class` of each shift's source (a text node by its element), only those
 * inside `within` when it is given; a source the page has since removed is always listed.
 */
export function layoutShifts(page: Page, within?: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const root = selector ? document.querySelector(selector) : document.documentElement;
    const sources = (window as unknown as { __layoutShiftSources: (Node | undefined)[] }).__layoutShiftSources;
    return sources
      .filter((node) => !node?.isConnected || root?.contains(node))
      .map((node) => {
        const element = node instanceof Element ? node : node?.parentElement;
        return node?.isConnected && element ? `${element.nodeName}.${element.className}` : 'a node since removed';
      });
  }, within);
}

/**
 * Resolves once the island's element carries `data-hydrated` (the runtime sets it after hydrateRoot).
 * An island that hydrates on interaction (the header) is given one first: focus moves into it, as a
 * keyboard user's Tab would; one that hydrates when visible (the live price) is scrolled into view.
 */
export async function waitForIsland(page: Page | Frame, name: string, timeout = 15_000): Promise<void> {
  const island = `vitrine-island[data-name="${name}"]`;
  const strategy = await page.getAttribute(island, 'data-strategy');
  if (strategy === 'interaction') await page.focus(`${island} :is(a[href], button, summary)`);
  if (strategy === 'visible') await page.locator(`${island} > *`).first().scrollIntoViewIfNeeded();
  await page.waitForSelector(`vitrine-island[data-name="${name}"][data-hydrated]`, { state: 'attached', timeout });
}

/**
 * Resolves once the page has drawn two more frames: scroll and resize handlers for what happened
 * before have run by then (the browser fires them before its frame callbacks).
 */
export function nextFrames(page: Pick<Page, 'evaluate'>): Promise<void> {
  return page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}
