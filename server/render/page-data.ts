import { LRUCache } from 'lru-cache';
import type { Alternate } from '../../client/page/head.ts';
import type { SwitcherLink } from '../../client/page/model.ts';
import type { PageEntry, TemplateEntry } from '../../common/content.ts';
import { intlLocale, languageOf } from '../../common/locales.ts';
import { isMultilingual, type Site, type SitesConfig } from '../../common/site.ts';
import type { ContentService } from '../content/service.ts';
import { canonicalPagePath } from '../routing/canonical.ts';
import { homePath } from '../routing/strategy.ts';

/** Where a page lives in one locale of one storefront: its path there, or null when it does not exist. */
async function pathIn(content: ContentService, site: Site, locale: string, uuid: string): Promise<string | null> {
  try {
    const page = await content.getPage(uuid, locale);
    return page ? canonicalPagePath(site, locale, page) : null;
  } catch {
    // A broken entry in another locale must not break this page; it just gets no alternate.
    return null;
  }
}

const HOME_PAGE_ID = '125';

/** The path of page `uuid` in `locale`, the home page being its language root. */
async function equivalentPath(
  content: ContentService,
  site: Site,
  locale: string,
  uuid: string,
): Promise<string | null> {
  // getPage rather than hasPage: a fault must reach the caller's fault watch (watchFaults) to keep
  // a links list with a missing alternate out of the memo.
  if (uuid === HOME_PAGE_ID) return (await pathIn(content, site, locale, uuid)) ? homePath(site, locale) : null;
  return pathIn(content, site, locale, uuid);
}

/** Display names never change for the life of the process: each is worked out once. */
const displayNames = new Map<string, string>();
function displayName(inLocale: string, type: 'language' | 'region', code: string): string {
  const key = `${inLocale}|${type}|${code}`;
  let label = displayNames.get(key);
  if (label === undefined) {
    const name = new Intl.DisplayNames([intlLocale(inLocale)], { type }).of(code) ?? code;
    label = name.charAt(0).toLocaleUpperCase(intlLocale(inLocale)) + name.slice(1);
    displayNames.set(key, label);
  }
  return label;
}

export interface PageLinks {
  alternates: Alternate[];
  languages: SwitcherLink[];
  countries: SwitcherLink[];
}

/**
 * hreflang alternates (every locale, on any storefront, that has this page uuid, plus x-default),
 * the language switcher (this storefront's locales) and the country selector (every storefront).
 * All links come from the sites config, never from request headers.
 */
export async function pageLinks(
  content: ContentService,
  config: SitesConfig,
  site: Site,
  locale: string,
  uuid: string,
): Promise<PageLinks> {
  const everywhere = config.sites.flatMap((s) => s.locales.map((l) => ({ site: s, locale: l })));
  const paths = await Promise.all(everywhere.map(({ site: s, locale: l }) => equivalentPath(content, s, l, uuid)));
  const alternates: Alternate[] = [];
  everywhere.forEach(({ site: s, locale: l }, i) => {
    const path = paths[i];
    if (path) alternates.push({ hreflang: l, href: s.url + path });
  });
  const defaultPath = paths[everywhere.findIndex((e) => e.site === site && e.locale === site.defaultLocale)];
  alternates.push({ hreflang: 'x-default', href: site.url + (defaultPath ?? homePath(site, site.defaultLocale)) });

  const languages: SwitcherLink[] = isMultilingual(site)
    ? site.locales.map((l) => {
        const path = paths[everywhere.findIndex((e) => e.site === site && e.locale === l)];
        return {
          label: displayName(l, 'language', languageOf(l)),
          href: path ?? homePath(site, l),
          lang: l,
          current: l === locale,
        };
      })
    : [];

  const countries: SwitcherLink[] = config.sites.map((s) => {
    // Another country opens in its default language; this one keeps the visitor's language and page.
    const target = s === site ? locale : s.defaultLocale;
    const path = paths[everywhere.findIndex((e) => e.site === s && e.locale === target)];
    const region = target.slice(3);
    return {
      label: displayName(locale, 'region', region),
      href: s.url + (path ?? homePath(s, target)),
      lang: target,
      current: s === site,
    };
  });
  countries.sort((a, b) => a.label.localeCompare(b.label, intlLocale(locale)));
  return { alternates, languages, countries };
}

/**
 * pageLinks reads the page in every locale of every storefront (29 reads): the result is the same
 * for every request of a page until content changes, so it is kept per storefront, locale and page.
 * A result built while content reads failed (a missing alternate) is not kept.
 */
export class PageLinksMemo {
  #memo: LRUCache<string, PageLinks>;

  constructor(options: { maxEntries: number; ttlMs: number }) {
    this.#memo = new LRUCache({ max: options.maxEntries, ttl: options.ttlMs });
  }

  async get(content: ContentService, config: SitesConfig, site: Site, locale: string, uuid: string) {
    const key = `${site.host}\u0000${locale}\u0000${uuid}`;
    const kept = this.#memo.get(key);
    if (kept) return kept;
    const watched = watchFaults(content);
    const links = await pageLinks(watched.content, config, site, locale, uuid);
    if (!watched.faulted()) this.#memo.set(key, links);
    return links;
  }

  clear(): void {
    this.#memo.clear();
  }
}

/**
 * The content service with every failed read counted, including the ones a caller swallows (an
 * alternate link left out, a template skipped): what was built from it is degraded and not cached.
 */
export function watchFaults(content: ContentService): { content: ContentService; faulted(): boolean } {
  let faults = 0;
  const watch = <T>(read: Promise<T>): Promise<T> =>
    read.catch((error: unknown) => {
      faults++;
      throw error;
    });
  const listPages = content.listPages?.bind(content);
  return {
    content: {
      getPage: (uuid, locale, preview) => watch(content.getPage(uuid, locale, preview)),
      getEntry: (type, uid, locale, preview) => watch(content.getEntry(type, uid, locale, preview)),
      getApplicationConfiguration: (host, locale, cookie) =>
        watch(content.getApplicationConfiguration(host, locale, cookie)),
      hasPage: (uuid, locale) => watch(content.hasPage(uuid, locale)),
      ...(content.locate ? { locate: content.locate.bind(content) } : {}),
      ...(content.appConfigVaries ? { appConfigVaries: content.appConfigVaries.bind(content) } : {}),
      ...(content.appConfigCookie ? { appConfigCookie: content.appConfigCookie.bind(content) } : {}),
      ...(listPages ? { listPages: (locale: string) => watch(listPages(locale)) } : {}),
      changes: content.changes,
    },
    faulted: () => faults > 0,
  };
}

/** Loads the template of a page; a failure is logged and the page renders without it. */
export async function loadTemplate(
  content: ContentService,
  page: PageEntry,
  locale: string,
  preview: string | undefined,
  log: { error(obj: object, msg: string): void },
): Promise<{ template: TemplateEntry | null; type: string; source: string }> {
  const ref = page.template[0];
  if (!ref) return { template: null, type: 'page_template', source: '' };
  const source = entrySource(content, ref._content_type_uid, ref.uid, locale);
  try {
    const template = await content.getEntry<TemplateEntry>(ref._content_type_uid, ref.uid, locale, preview);
    if (!template) log.error({ template: ref, locale }, 'Template not found; rendering without template components');
    return { template, type: ref._content_type_uid, source };
  } catch (error) {
    log.error({ err: error, template: ref, locale }, 'Template fetch failed; rendering without template components');
    return { template: null, type: ref._content_type_uid, source };
  }
}

/** Where an entry comes from, for warnings: the store file or upstream URL, else its API path. */
export function entrySource(content: ContentService, type: string, uid: string, locale: string): string {
  return (
    content.locate?.({ kind: 'entry', contentType: type, uid, locale }) ??
    `/cs/api/contentstack/${type}/${uid}?language=${locale}`
  );
}
