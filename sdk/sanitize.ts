import DOMPurify, { type DOMPurify as Purifier } from 'dompurify';
import { HTML_ALLOWED_ATTRIBUTES, HTML_ALLOWED_SCHEMES, HTML_ALLOWED_TAGS } from '../common/html-allow-list.ts';
import type { PageWindow } from './dom.ts';

/**
 * The one door for HTML that arrives from the editor: DOMPurify with the server's allow-list
 * (common/html-allow-list.ts), plus the `<cs-compare>` diff wrapper and its class. A lazy chunk:
 * DOMPurify alone is larger than the whole preview core, and only the compare view needs it.
 * Tested in Chromium (test/e2e/preview-*.test.ts): happy-dom lacks what DOMPurify needs and would
 * pass markup through.
 */
const WRAPPER = 'cs-compare';

/** A URL with one of the allowed schemes, or relative; never protocol-relative (`//host`). */
const ALLOWED_URI = new RegExp(
  `^(?!//)(?:(?:${HTML_ALLOWED_SCHEMES.join('|')}):|[^a-z]|[a-z+.\\-]+(?:[^a-z+.\\-:]|$))`,
  'i',
);

const purifiers = new WeakMap<PageWindow, Purifier>();

function purifierFor(win: PageWindow): Purifier {
  let purifier = purifiers.get(win);
  if (purifier) return purifier;
  purifier = DOMPurify(win);
  // Where DOMPurify cannot work it returns its input untouched: refuse instead.
  if (!purifier.isSupported) throw new Error('DOMPurify is not supported in this browser');
  purifier.addHook('uponSanitizeAttribute', (node, data) => {
    // `class` styles the diff wrapper only; other attributes per element, as the server allows them.
    const tag = node.nodeName.toLowerCase();
    const allowed: readonly string[] =
      tag === WRAPPER ? ['class'] : (HTML_ALLOWED_ATTRIBUTES[tag as keyof typeof HTML_ALLOWED_ATTRIBUTES] ?? []);
    if (!allowed.includes(data.attrName)) data.keepAttr = false;
  });
  purifier.addHook('afterSanitizeAttributes', (node) => {
    // A link that opens a new window must not hand the opener to the target page.
    if (node.nodeName === 'A' && node.getAttribute('target') === '_blank')
      node.setAttribute('rel', 'noopener noreferrer');
  });
  purifiers.set(win, purifier);
  return purifier;
}

export function sanitizeHtml(html: string, win: PageWindow): DocumentFragment {
  return purifierFor(win).sanitize(html, {
    ALLOWED_TAGS: [...HTML_ALLOWED_TAGS, WRAPPER],
    ALLOWED_ATTR: ['class', ...new Set(Object.values(HTML_ALLOWED_ATTRIBUTES).flat())],
    ALLOWED_URI_REGEXP: ALLOWED_URI,
    RETURN_DOM_FRAGMENT: true,
  });
}
