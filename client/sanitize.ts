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

export function sanitizeCmsHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

/** Inline-only variant for places that sit inside a sentence (footnote text, prices). */
export function sanitizeInlineHtml(html: string): string {
  return sanitizeHtml(html, {
    ...OPTIONS,
    allowedTags: ['strong', 'b', 'em', 'i', 'sub', 'sup', 'br', 'a', 'abbr', 'span'],
  });
}
