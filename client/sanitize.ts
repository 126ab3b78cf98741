import { LRUCache } from 'lru-cache';
import sanitizeHtml from 'sanitize-html';

/**
 * The one door for HTML from the CMS (rich text, footnote descriptions, FAQ answers). Only inline
 * and block text formatting and http(s)/mailto/tel links survive; scripts, event handlers, styles
 * and `javascript:` URLs do not.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'sub',
    'sup',
    'small',
    'mark',
    'ul',
    'ol',
    'li',
    'a',
    'h2',
    'h3',
    'h4',
    'blockquote',
    'span',
    'abbr',
    'code',
  ],
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'], abbr: ['title'] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowProtocolRelative: false,
  transformTags: {
    // A link that opens a new window must not hand the opener to the target page.
    a: (tagName, attribs) => ({
      tagName,
      attribs: attribs.target === '_blank' ? { ...attribs, rel: 'noopener noreferrer' } : attribs,
    }),
  },
};

const INLINE_OPTIONS: sanitizeHtml.IOptions = {
  ...OPTIONS,
  allowedTags: ['strong', 'b', 'em', 'i', 'sub', 'sup', 'br', 'a', 'abbr', 'span'],
};

/**
 * Sanitising is a pure function of its input and was ~7 % of an uncached render (issue 10): the
 * same CMS text is cleaned once and then reused until it is evicted. Bounded by characters kept,
 * so hostile or huge content cannot grow the process.
 */
function memoised(options: sanitizeHtml.IOptions): (html: string) => string {
  const cleaned = new LRUCache<string, string>({
    maxSize: 2_000_000,
    sizeCalculation: (value, key) => value.length + key.length || 1,
  });
  return (html) => {
    let result = cleaned.get(html);
    if (result === undefined) {
      result = sanitizeHtml(html, options);
      // Larger than the whole cache: lru-cache would refuse it anyway; skip the attempt.
      if (html.length + result.length < 200_000) cleaned.set(html, result);
    }
    return result;
  };
}

export const sanitizeCmsHtml: (html: string) => string = memoised(OPTIONS);

/** Inline-only variant for places that sit inside a sentence (footnote text, prices). */
export const sanitizeInlineHtml: (html: string) => string = memoised(INLINE_OPTIONS);
