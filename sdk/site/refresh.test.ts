import t from 'tap';
import { until } from '../../test/until.ts';
import type { PageWindow } from '../dom.ts';
import { createRefresh } from './refresh.ts';

/** The site's entry-change subscriber: the same page with the editor's latest hash, newest change wins. */

const PAGE =
  'https://www.halden.co.uk/cs/kitchen/aquasense-60-dishwasher-4711?live_preview=h1&content_type_uid=page&entry_uid=4711';

function fakeWindow(respond: (url: string, signal: AbortSignal) => Promise<Response>) {
  const requested: string[] = [];
  const win = {
    location: { href: PAGE },
    fetch: (url: URL, init: RequestInit) => {
      requested.push(String(url));
      return respond(String(url), init.signal as AbortSignal);
    },
  } as unknown as PageWindow;
  return { win, requested };
}

t.test('a change fetches the page with the new hash and morphs it', async (t) => {
  const { win, requested } = fakeWindow(async () => new Response('<html>draft</html>'));
  const morphed: string[] = [];
  let hash = 'h2';
  const refresh = createRefresh(
    win,
    () => hash,
    async () => (_win, html) => morphed.push(html),
  );
  refresh();
  await until(() => morphed.length === 1, { what: 'the morph' });
  t.same(requested, [
    'https://www.halden.co.uk/cs/kitchen/aquasense-60-dishwasher-4711?live_preview=h2&content_type_uid=page&entry_uid=4711',
  ]);
  t.same(morphed, ['<html>draft</html>']);
  hash = 'h3';
  refresh();
  await until(() => morphed.length === 2, { what: 'the second morph' });
  t.match(requested[1], 'live_preview=h3');
});

t.test('a newer change aborts the older one: stale content never lands', async (t) => {
  let aborted = false;
  const { win } = fakeWindow(
    (url, signal) =>
      new Promise((resolve, reject) => {
        const delay = url.includes('slow') ? 50 : 5;
        const timer = setTimeout(() => resolve(new Response(url)), delay);
        signal.addEventListener('abort', () => {
          aborted = url.includes('slow');
          clearTimeout(timer);
          reject(new DOMException('aborted', 'AbortError'));
        });
      }),
  );
  const morphed: string[] = [];
  let hash = 'slow';
  const refresh = createRefresh(
    win,
    () => hash,
    async () => (_win, html) => morphed.push(html),
  );
  refresh();
  hash = 'fast';
  refresh();
  // The slow request was called off: its answer can never come, so what landed is all that will.
  await until(() => aborted && morphed.length === 1, { what: 'the fast change, the slow one aborted' });
  t.equal(morphed.length, 1);
  t.match(morphed[0], 'live_preview=fast');
});

t.test('a failed fetch is logged and leaves the page as it is', async (t) => {
  const { win } = fakeWindow(async () => new Response('nope', { status: 500 }));
  const logged: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => logged.push(args[1]);
  t.teardown(() => {
    console.error = original;
  });
  const morphed: string[] = [];
  createRefresh(
    win,
    () => 'h',
    async () => (_win, html) => morphed.push(html),
  )();
  await until(() => logged.length > 0, { what: 'the logged failure' });
  t.same(logged, ['Could not update the preview with the latest content']);
  t.same(morphed, []);
});
