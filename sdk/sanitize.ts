import DOMPurify, { type DOMPurify as Purifier } from 'dompurify';
import type { PageWindow } from './dom.ts';

/**
 * The one door for HTML that arrives from the editor (style guide 4): DOMPurify with its defaults,
 * plus the `<cs-compare>` diff wrapper. A lazy chunk: DOMPurify alone is larger than the whole
 * preview core, and only the compare view needs it. Tested in Chromium (test/e2e/preview-*.test.ts):
 * happy-dom lacks what DOMPurify needs and would pass markup through.
 */
const purifiers = new WeakMap<PageWindow, Purifier>();

export function sanitizeHtml(html: string, win: PageWindow): DocumentFragment {
  let purifier = purifiers.get(win);
  if (!purifier) {
    purifier = DOMPurify(win);
    // Where DOMPurify cannot work it returns its input untouched: refuse instead.
    if (!purifier.isSupported) throw new Error('DOMPurify is not supported in this browser');
    purifiers.set(win, purifier);
  }
  return purifier.sanitize(html, { ADD_TAGS: ['cs-compare'], RETURN_DOM_FRAGMENT: true });
}
