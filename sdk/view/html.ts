/**
 * Markup for the builder's and collaboration's surfaces, written as templates instead of built node
 * by node: `html` escapes every interpolated value as text, so text from the page or the editor can
 * never become markup; only markup made by `html` itself nests unescaped.
 */

export class Html {
  readonly markup: string;
  constructor(markup: string) {
    this.markup = markup;
  }
}

/** What a template accepts: text and numbers (escaped), markup, lists of either, and nothing. */
export type Part = Html | string | number | false | null | undefined | readonly Part[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for element content and quoted attribute values. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);

function markupOf(part: Part): string {
  if (part instanceof Html) return part.markup;
  if (Array.isArray(part)) return part.map(markupOf).join('');
  if (part === false || part === null || part === undefined) return '';
  return escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...parts: Part[]): Html {
  let markup = strings[0] as string;
  parts.forEach((part, i) => {
    markup += markupOf(part) + strings[i + 1];
  });
  return new Html(markup);
}

/** An attribute present or absent (`disabled`, `hidden`), for `<button ${when(off, 'disabled')}>`. */
export const when = (on: boolean, attribute: string): Html => new Html(on ? attribute : '');
