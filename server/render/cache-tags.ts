import type { PageEntry, TemplateEntry } from '../../common/content.ts';
import type { ContentChange } from '../content/changes.ts';

/**
 * CDN cache tags: each page names the entries it was built from, so a CDN that purges by tag
 * (Fastly's Surrogate-Key, Cloudflare's and Akamai's Cache-Tag) drops exactly the pages an entry
 * change touches. A tag is `{content type}:{uid}` for every locale of the entry (a purge of a
 * little more is always correct), plus `site:{host}` for everything a storefront serves.
 */

const APP_CONFIG = 'application_configuration';

/** The entries a page was built from, as tags. */
export function pageTags(host: string, page: PageEntry, template: TemplateEntry | null): string[] {
  const tags = new Set([`site:${host}`, `page:${page.uuid}`, `page:${page.uid}`, APP_CONFIG]);
  const ref = page.template[0];
  if (ref) tags.add(`${ref._content_type_uid}:${ref.uid}`);
  for (const zone of [template?.header_components, template?.body_components, template?.footer_components])
    for (const component of zone ?? []) tags.add(`${component._content_type_uid}:${component.uid}`);
  return [...tags].filter(isTag);
}

/** The tags a change affects: its entries', or every storefront's when it names none. */
export function changeTags(change: ContentChange, hosts: readonly string[]): string[] {
  if (!change.entries) return hosts.map((host) => `site:${host}`);
  const tags = change.entries.map((entry) =>
    entry.type === APP_CONFIG ? APP_CONFIG : `${entry.type === 'pages' ? 'page' : entry.type}:${entry.uid}`,
  );
  return [...new Set(tags)].filter(isTag);
}

/** Surrogate-Key is space-separated and Cache-Tag comma-separated: neither, nor control characters, in a tag. */
function isTag(tag: string): boolean {
  return tag.length <= 128 && /^[\x21-\x7e]+$/.test(tag) && !tag.includes(',');
}

/** The two headers CDNs read tags from. */
export function tagHeaders(tags: readonly string[]): Record<string, string> {
  return tags.length === 0 ? {} : { 'surrogate-key': tags.join(' '), 'cache-tag': tags.join(',') };
}

const pageHeaders = new WeakMap<
  PageEntry,
  { host: string; template: TemplateEntry | null; headers: Record<string, string> }
>();

/**
 * The tag headers of a page, kept with the page entry: a published page's entry and template are the
 * same objects until content changes (the assembled-page memo), so each page's tags are worked out
 * once, not on every render of it.
 */
export function pageTagHeaders(host: string, page: PageEntry, template: TemplateEntry | null): Record<string, string> {
  const kept = pageHeaders.get(page);
  if (kept && kept.host === host && kept.template === template) return kept.headers;
  const headers = Object.freeze(tagHeaders(pageTags(host, page, template)));
  pageHeaders.set(page, { host, template, headers });
  return headers;
}
