import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { T } from './builder-page.ts';
import { freePort } from './server.ts';

/**
 * The published live-preview-utils 4.4.1 build (vendored under test/fixtures/live-preview-utils-4.4.1)
 * served next to fixture pages, so a 4.x browser test runs each scenario against 4.4.1 itself as
 * well as against our layer. The build is at `/lpu.js`; pages are served by path. Also what the
 * 4.x tests share: the fixture page, the new-tab editor, a field-location app.
 */

const BUILD = new URL('../fixtures/live-preview-utils-4.4.1/live-preview-utils-4.4.1.min.js', import.meta.url);

export interface ReferenceFixture {
  /** `http://127.0.0.1:{port}{path}` of the fixture server. */
  url(path: string): string;
  /** Why the 4.4.1 runs are skipped (the vendored build is missing), or false. */
  skip: string | false;
}

/** Starts the fixture server for a test file (top-level await); it stops with the file's tests. */
export async function startReferenceFixture(
  t: { teardown(fn: () => unknown): void },
  pages: Record<string, string>,
): Promise<ReferenceFixture> {
  const build = existsSync(BUILD) ? await readFile(BUILD, 'utf8') : undefined;
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://fixture').pathname;
    const js = path === '/lpu.js';
    const body = js ? build : pages[path];
    response.writeHead(body === undefined ? 404 : 200, {
      'content-type': js ? 'text/javascript' : 'text/html',
      'cache-control': 'no-store',
    });
    response.end(body ?? '');
  });
  const port = await freePort();
  server.listen(port, '127.0.0.1');
  t.teardown(() => server.close());
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    skip: build ? false : 'the vendored live-preview-utils 4.4.1 build is missing',
  };
}

/** The storefront's headline and subline tags, as the fixture pages carry them. */
export const TAGGED = `<h1 data-cslp="${T}.body_components.0.headline">AquaSense 60</h1>
  <p data-cslp="${T}.body_components.0.subline">Quiet and quick</p>`;

/**
 * A fixture page: `body` in a padded main, then the 4.4.1 build started with `init` (members of
 * the init object, JavaScript source) beside the test stack; the edit button is off.
 */
export function fixturePage(body: string, init: string, title = '4.4.1'): string {
  return `<!doctype html><html><head><title>${title}</title></head><body>
<main style="padding:80px">
  ${body}
</main>
<script src="/lpu.js"></script>
<script>
  ContentstackLivePreview.init({ ${init}, stackDetails: { apiKey: 'blt-e2e', environment: 'preview' },
    editButton: { enable: false } });
</script></body></html>`;
}

/**
 * An editor page that opens the site (`site` in its query) in a new tab, named by `name` when
 * given, and talks to it through the opener, as 4.x's editor does.
 */
export const TAB_EDITOR = `<!doctype html><html><body><script src="/apm.js"></script><script>
  const params = new URLSearchParams(location.search);
  window.received = [];
  window.openSite = () => {
    const tab = window.open(params.get('site'), params.get('name') ?? '_blank');
    const lp = new ContentstackAdvPostMessage.EventManager('live-preview', { target: tab, suppressErrors: true });
    lp.on('init', (event) => {
      received.push({ type: 'init', data: event.data });
      return { contentTypeUid: 'page_template', entryUid: 'dishwasher', windowType: 'preview' };
    });
    lp.on('check-entry-page', () => undefined);
    window.channels = { lp };
  };
</script></body></html>`;

declare global {
  interface Window {
    /** The new-tab editor page: opens the site and talks to it through the opener. */
    openSite(): void;
  }
}

/** A field-location app as 4.x's editor lists it for the dishwasher page's headline. */
export const fieldLocationApp = (uid: string, title: string) => ({
  uid,
  title,
  app_installation_uid: `inst-${uid}`,
  app_uid: `app-${uid}`,
  contentTypeUid: 'page_template',
  entryUid: 'dishwasher',
  fieldDataType: 'text',
  fieldDisplayName: 'Headline',
  fieldPath: 'body_components.headline',
  locale: 'en-GB',
  manifest: { uid: `app-${uid}`, name: title, description: '', icon: '', visibility: 'public' },
});

/** A payload's keys, sorted: what the 4.x scenarios compare with 4.4.1's. */
export const keysOf = (value: unknown) => Object.keys((value ?? {}) as object).sort();
