import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { Browser, Frame, Page } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { currentGroup, type Group } from './group.ts';
import { freePort, type RunningServer, startServer } from './server.ts';

/**
 * The editor side of the preview browser tests: a page on another origin that frames a storefront
 * page and plays the Contentstack editor with the real @contentstack/advanced-post-message, as the
 * Contentstack app does. Each test file brings only its answers (a script); the page frame, the
 * three channels, the log of what the layer sent and the servers are set up here, the way
 * `startSuite` does for plain pages.
 */

/** The draft API token the suite's server gets (preview tests write drafts with it). */
export const DRAFT_TOKEN = 'e2e-draft-token-0123456789';

/** One request the layer sent to the editor, with the editor's clock when it arrived. */
export interface Received {
  type: string;
  data: unknown;
  at?: number;
}

declare global {
  interface Window {
    /** Every request recorded with `record` in the editor page, oldest first. */
    received: { type: string; data: unknown; at?: number }[];
    /** The editor's managers on the three channels. */
    channels: Record<'lp' | 'vb' | 'tl', { send(type: string, payload?: unknown): Promise<unknown> }>;
  }
}

/**
 * The editor page. In `script`: `channels.lp/.vb/.tl` (EventManagers targeting the site frame),
 * `record(manager, type, answer?)` (logs the request in `received`, answers with `answer(data)`)
 * and `params` (the page's query). The frame loads the `site` query parameter after the script.
 */
function editorPage(script: string): string {
  return `<!doctype html><html><head><title>Editor</title></head><body>
<iframe id="site" name="site" width="1200" height="760"></iframe>
<script src="/apm.js"></script>
<script>
  const params = new URLSearchParams(location.search);
  const frame = document.getElementById('site');
  const site = params.get('site');
  const options = { target: frame.contentWindow, targetOrigin: new URL(site).origin, suppressErrors: true };
  const { EventManager } = ContentstackAdvPostMessage;
  window.received = [];
  window.channels = {
    lp: new EventManager('live-preview', options),
    vb: new EventManager('visual-builder', options),
    tl: new EventManager('timeline', options),
  };
  const record = (manager, type, answer) => manager.on(type, (event) => {
    received.push({ type, data: event.data, at: performance.timeOrigin + performance.now() });
    return answer ? answer(event.data) : undefined;
  });
${script}
  frame.src = site;
</script></body></html>`;
}

export interface EditorOptions {
  /** The editor's answers, run in the editor page before the frame loads (see `editorPage`). */
  script: string;
  /** More pages the editor origin serves, by path (the UMD build is at `/apm.js`). */
  pages?: Record<string, string>;
}

export interface EditorSuite {
  server: RunningServer;
  browser: Browser;
  /** The editor's origin, `http://127.0.0.1:{port}`: the only one the site trusts. */
  origin: string;
  /** The same editor server under `http://localhost:{port}`: a foreign window's origin. */
  foreignOrigin: string;
  /**
   * Opens the editor framing `siteUrl` in a fresh context (closed with `t`'s teardown) and
   * resolves once the editor has received `until`. `query` adds to the editor page's query.
   */
  open(
    t: { teardown(fn: () => unknown): void },
    siteUrl: string,
    options?: { until?: string; query?: [string, string][] },
  ): Promise<{ page: Page; site: Frame }>;
}

/**
 * The set-up of an editor browser test file: the editor server, the built server trusting it
 * (with a preview stack and the draft token) and Chromium, all stopped when the file's tests end.
 * Call with top-level await: `const editor = await startEditorSuite(t, { script })`.
 */
export async function startEditorSuite(
  t: { teardown(fn: () => unknown): void },
  options: EditorOptions,
): Promise<EditorSuite> {
  const { port, close } = await editorServer(options);
  const origin = `http://127.0.0.1:${port}`;
  // Builder mode needs a stack; preview tests write drafts with the token.
  const env = {
    EDITOR_ORIGINS: origin,
    PREVIEW_API_KEY: 'blt-e2e',
    PREVIEW_ENVIRONMENT: 'preview',
    DRAFT_API_TOKEN: DRAFT_TOKEN,
  };
  const server = await startServer(env, { share: true });
  const browser = await launchBrowser();
  t.teardown(async () => {
    await browser.close();
    await server.stop();
    close();
  });

  return {
    server,
    browser,
    origin,
    foreignOrigin: `http://localhost:${port}`,
    async open(t, siteUrl, { until = 'init', query = [] } = {}) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      t.teardown(() => context.close());
      const page = await context.newPage();
      await page.goto(`${origin}/?${new URLSearchParams([['site', siteUrl], ...query])}`);
      await page.waitForFunction((type) => window.received.some((r) => r.type === type), until, { timeout: 15_000 });
      const path = new URL(siteUrl).pathname;
      const site = page.frames().find((frame) => frame.url().includes(path));
      if (!site) throw new Error('the site frame is missing');
      return { page, site };
    },
  };
}

const APM = createRequire(import.meta.url).resolve('@contentstack/advanced-post-message');
/** The editor server of each group of files, serving the current file's options. */
const groupEditors = new WeakMap<Group, { options: EditorOptions; port: Promise<number> }>();

/**
 * The editor's origin server, serving `options`' pages. In a group (test/e2e/together.ts) one server
 * serves each file's pages in turn, so the built server trusting its origin is shared too.
 */
async function editorServer(options: EditorOptions): Promise<{ port: number; close(): void }> {
  const group = currentGroup();
  if (!group) return listenEditor(() => options);
  let shared = groupEditors.get(group);
  if (!shared) {
    const entry = { options, port: Promise.resolve(0) };
    entry.port = listenEditor(() => entry.options).then(({ port, close }) => {
      group.closers.push(close);
      return port;
    });
    groupEditors.set(group, entry);
    shared = entry;
  }
  shared.options = options;
  return { port: await shared.port, close: () => {} };
}

async function listenEditor(options: () => EditorOptions): Promise<{ port: number; close(): void }> {
  const apm = await readFile(APM, 'utf8');
  const editor = createServer((request, response) => {
    const { script, pages } = options();
    const path = new URL(request.url ?? '/', 'http://editor').pathname;
    const [type, body] =
      path === '/apm.js' ? ['text/javascript', apm] : ['text/html', pages?.[path] ?? editorPage(script)];
    response.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
    response.end(body);
  });
  const port = await freePort();
  editor.listen(port, '127.0.0.1');
  return { port, close: () => editor.close() };
}

/** What the layer sent of one type so far. */
export const received = (page: Page, type: string): Promise<Received[]> =>
  page.evaluate((type) => window.received.filter((r) => r.type === type), type);

/** Waits (5 s at most) until the layer sent `count` requests of `type`; resolves with them all. */
export async function waitFor(page: Page, type: string, count = 1): Promise<Received[]> {
  await page.waitForFunction(
    ([type, count]) => window.received.filter((r) => r.type === type).length >= (count as number),
    [type, count] as const,
    { timeout: 5_000 },
  );
  return received(page, type);
}

/**
 * A request from the editor on the visual-builder channel, answered by the builder: once its answer
 * is back, the site has handled everything that reached it before (messages are handled in order,
 * and what a handler sends, it sends before the next message is handled). Proof that something
 * did not happen, without waiting for a time.
 */
export async function roundTrip(page: Page): Promise<void> {
  await page.evaluate(() => window.channels.vb.send('get-entries-in-current-page'));
}
