/**
 * The HTML that survives sanitising, wherever HTML from the CMS or the editor is shown: inline and
 * block text formatting and http(s)/mailto/tel links; no scripts, event handlers, styles or
 * `javascript:` URLs. One list for the server's sanitize-html and the preview layer's DOMPurify.
 */
export const HTML_ALLOWED_TAGS = [
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
] as const;

export const HTML_ALLOWED_ATTRIBUTES = { a: ['href', 'title', 'target', 'rel'], abbr: ['title'] } as const;

export const HTML_ALLOWED_SCHEMES = ['http', 'https', 'mailto', 'tel'] as const;
