import { LRUCache } from 'lru-cache';
import sanitizeHtml from 'sanitize-html';
import { HTML_ALLOWED_ATTRIBUTES, HTML_ALLOWED_SCHEMES, HTML_ALLOWED_TAGS } from '../common/html-allow-list.ts';

/**
 * The one door for HTML from the CMS (rich text, footnote descriptions, FAQ answers), with the
 * allow-list the preview layer's DOMPurify uses too.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...HTML_ALLOWED_TAGS],
  allowedAttributes: Object.fromEntries(
    Object.entries(HTML_ALLOWED_ATTRIBUTES).map(([tag, names]) => [tag, [...names]]),
  ),
  allowedSchemes: [...HTML_ALLOWED_SCHEMES],
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
 * Sanitising is a pure function of its input and was ~7 % of an uncached render: the
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
