import t from 'tap';
import { until } from '../../test/until.ts';
import type { PageWindow } from '../dom.ts';
import { createRefresh } from './refresh.ts';

/** The site's entry-change subscriber: the same page with the editor's latest hash, newest change wins. */

const PAGE =
  'https://www.halden.co.uk/cs/kitchen/aquasense-60-dishwasher-4711?live_preview=h1&content_type_uid=page&entry_uid=4711';

/**
 * A page whose fetch answers with `respond`, and its entry-change subscriber: `site.hash` is the
 * editor's latest hash, `morphed` the HTML that landed.
 */
function fakeSite(respond: (url: string, signal: AbortSignal) => Promise<Response>, hash = 'h') {
  const requested: string[] = [];
  const morphed: string[] = [];
  const win = {
    location: { href: PAGE },
    fetch: (url: URL, init: RequestInit) => {
      requested.push(String(url));
      return respond(String(url), init.signal as AbortSignal);
    },
  } as unknown as PageWindow;
  const site = { requested, morphed, hash, refresh: () => {} };
  site.refresh = createRefresh(
    win,
    () => site.hash,
    async () => (_win, html) => morphed.push(html),
  );
  return site;
}

t.test('a change fetches the page with the new hash and morphs it', async (t) => {
  const site = fakeSite(async () => new Response('<html>draft</html>'), 'h2');
  const { requested, morphed } = site;
  site.refresh();
  await until(() => morphed.length === 1, { what: 'the morph' });
  t.same(requested, [
    'https://www.halden.co.uk/cs/kitchen/aquasense-60-dishwasher-4711?live_preview=h2&content_type_uid=page&entry_uid=4711',
  ]);
  t.same(morphed, ['<html>draft</html>']);
  site.hash = 'h3';
  site.refresh();
  await until(() => morphed.length === 2, { what: 'the second morph' });
  t.match(requested[1], 'live_preview=h3');
});

t.test('a newer change aborts the older one: stale content never lands', async (t) => {
  let aborted = false;
  // The slow answer comes only if nobody calls it off; the fast one at once.
  const site = fakeSite(
    (url, signal) =>
      new Promise((resolve, reject) => {
        if (!url.includes('slow')) resolve(new Response(url));
        signal.addEventListener('abort', () => {
          aborted = url.includes('slow');
          reject(new DOMException('aborted', 'AbortError'));
        });
      }),
    'slow',
  );
  site.refresh();
  site.hash = 'fast';
  site.refresh();
  await until(() => aborted && site.morphed.length === 1, { what: 'the fast change, the slow one aborted' });
  t.equal(site.morphed.length, 1);
  t.match(site.morphed[0], 'live_preview=fast');
});

t.test('a failed fetch is logged and leaves the page as it is', async (t) => {
  const site = fakeSite(async () => new Response('nope', { status: 500 }));
  const logged: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => logged.push(args[1]);
  t.teardown(() => {
    console.error = original;
  });
  site.refresh();
  await until(() => logged.length > 0, { what: 'the logged failure' });
  t.same(logged, ['Could not update the preview with the latest content']);
  t.same(site.morphed, []);
});
