import { diffHtml } from './entries.ts';
import type { EditorChannel } from './protocol.ts';

/**
 * The timeline view: the framed draft against the published page or another draft, shown in the page through the
 * `timeline` channel as the Contentstack compare view does (`send-cslp-data`, `diff-value`,
 * `remove-diff`). The published page is fetched (same origin, as a preview without drafts) and read with DOMParser.
 */

/** A preview hash the workbench never writes drafts under (its own are `wb-` and 12 hex digits). */
export const PUBLISHED_HASH = 'wb-published';

/** Leaf tags (no tagged descendant) and their innerHTML, as the layer's `send-cslp-data` answers. */
export function leafTags(doc: Document): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const element of doc.querySelectorAll('[data-cslp]')) {
    if (element.querySelector('[data-cslp]')) continue;
    tags[element.getAttribute('data-cslp') as string] = element.innerHTML;
  }
  return tags;
}

const textOf = (html: string) => new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';

/**
 * Sends the word diff of every changed text field between the base (another draft hash, or
 * PUBLISHED_HASH) and the framed draft; resolves with how many differ.
 */
export async function compareWith(timeline: EditorChannel, path: string, base = PUBLISHED_HASH): Promise<number> {
  // Plain pages carry no tags: the published page is fetched as a preview under a hash without drafts.
  const url = `${path}?${new URLSearchParams({ live_preview: base })}`;
  const response = await fetch(url, { headers: { accept: 'text/html' } });
  if (!response.ok) throw new Error(`the base page answered ${response.status}`);
  const published = leafTags(new DOMParser().parseFromString(await response.text(), 'text/html'));
  const draft = (await timeline.send<Record<string, string>>('send-cslp-data')) ?? {};
  const diff: Record<string, string> = {};
  for (const [tag, html] of Object.entries(draft)) {
    const before = published[tag];
    // Text fields only: markup (rich text, images) would need a tree diff.
    if (before === undefined || before === html || /<|->/.test(html) || /<|->/.test(before)) continue;
    diff[tag] = diffHtml(textOf(before), textOf(html));
  }
  if (Object.keys(diff).length > 0) await timeline.send('diff-value', { type: 'compare', diff });
  return Object.keys(diff).length;
}

export async function removeCompare(timeline: EditorChannel): Promise<void> {
  await timeline.send('remove-diff');
}
