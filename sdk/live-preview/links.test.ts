import { Window } from 'happy-dom';
import t from 'tap';
import type { PageWindow } from '../dom.ts';
import { decorateLink, decorateLinkClicks } from './links.ts';

/** Link decoration: same-origin links carry the preview parameters when clicked. */

const PAGE = new URL('https://www.halden.co.uk/cs/kitchen-200?live_preview=h0&content_type_uid=page&entry_uid=4711');

t.test('a same-origin link gets the hash and the page entry; anything else is left alone', async (t) => {
  t.equal(
    decorateLink('https://www.halden.co.uk/cs/dishwasher-4711?x=1', PAGE, 'h2'),
    'https://www.halden.co.uk/cs/dishwasher-4711?x=1&live_preview=h2&content_type_uid=page&entry_uid=4711',
  );
  t.equal(
    decorateLink('/cs/oven-4712#specs', PAGE, 'h2'),
    'https://www.halden.co.uk/cs/oven-4712?live_preview=h2&content_type_uid=page&entry_uid=4711#specs',
    'relative links resolve against the page',
  );
  t.equal(decorateLink('https://www.halden.de/cs/x-1', PAGE, 'h2'), 'https://www.halden.de/cs/x-1', 'another origin');
  t.equal(decorateLink('/cs/x-1?live_preview=mine', PAGE, 'h2'), '/cs/x-1?live_preview=mine', 'already carries a hash');
  t.equal(
    decorateLink('/cs/x-1', new URL('https://www.halden.co.uk/cs/y-2?live_preview=h&entry_uid=4711'), 'h'),
    'https://www.halden.co.uk/cs/x-1?live_preview=h',
    'as 4.4.1: the hash alone is enough; content type and entry only as a pair',
  );
  t.equal(decorateLink('/cs/x-1', PAGE, ''), '/cs/x-1', 'no hash');
  t.throws(() => decorateLink('http://[bad', PAGE, 'h2'));
});

t.test('under Timeline a link keeps the preview parameters and the timestamp, as 4.4.1 does', async (t) => {
  const timeline = new URL(`${PAGE.href}&preview_timestamp=2026-11-20T10:00:00.000Z`);
  t.equal(
    decorateLink('/cs/oven-4712', timeline, 'h2'),
    'https://www.halden.co.uk/cs/oven-4712?live_preview=h2&content_type_uid=page&entry_uid=4711&preview_timestamp=2026-11-20T10%3A00%3A00.000Z',
  );
});

t.test('clicks rewrite the link before the browser follows it; a bad URL keeps the link and logs', async (t) => {
  const happy = new Window({ url: PAGE.href });
  t.teardown(() => happy.happyDOM.close());
  const win = happy as unknown as PageWindow;
  win.document.body.innerHTML =
    '<a id="in" href="/cs/oven-4712"><span id="label">Oven</span></a><a id="bad" href="http://[::1">x</a>';
  const stop = decorateLinkClicks(win, () => 'h3');
  const logged: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => logged.push(args[1]);
  t.teardown(() => {
    console.error = original;
  });
  // happy-dom follows a link before the click bubbles (browsers do after): keep the page where it is.
  win.addEventListener('click', (event) => event.preventDefault(), { capture: true });
  win.document.getElementById('label')?.click();
  t.equal(
    win.document.getElementById('in')?.getAttribute('href'),
    'https://www.halden.co.uk/cs/oven-4712?live_preview=h3&content_type_uid=page&entry_uid=4711',
  );
  win.document.getElementById('bad')?.click();
  t.equal(win.document.getElementById('bad')?.getAttribute('href'), 'http://[::1', 'kept as it was');
  t.match(logged, ['Error while adding live preview to URL']);
  stop();
});
