import type {
  ApplicationConfiguration,
  ComponentEntry,
  LayoutName,
  Link,
  NavigationHeader,
  PageEntry,
  TaxonomySegment,
  TemplateEntry,
} from '../../common/content.ts';
import { isRecord } from '../../common/is-record.ts';

/**
 * The tolerant reader of page-level entries. A CMS is edited by people: an
 * entry that exists always gives something to render. Every field has a fallback when it is missing
 * or malformed, and each fallback taken on a field that was present but unusable is reported as a
 * warning naming where the entry came from and the JSON path of the field.
 */

export interface ContentWarning {
  /** The store file (`de-CH/pages/4711.json`) or the upstream API path the entry came from. */
  where: string;
  /** The component's uid, for warnings about one component. */
  uid?: string;
  /** JSON path of the field inside the entry: `$.url_taxonomy[0]`. */
  path: string;
  problem: string;
}

export type WarnContent = (warning: ContentWarning) => void;

type Json = Record<string, unknown>;

const isText = (value: unknown): value is string => typeof value === 'string';

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const REF_PART = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const CONTENT_TYPE = /^[a-z][a-z0-9_]{0,63}$/;
const LAYOUTS: readonly LayoutName[] = ['default', 'minimal', 'base-logo-only', 'base-minimal', 'base-static', 'base'];

/** `Kühlschrank & Co.` → `kuhlschrank-co`: what a slug is when the entry's own is unusable. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
}

/**
 * A page entry read tolerantly. Its id is the one of the URL, the file name and the API path: a
 * `uuid` field is not needed, and one that disagrees is reported and ignored.
 */
export function readPage(value: unknown, key: { uuid: string; locale: string }, where: string, warn: WarnContent) {
  const report = (path: string, problem: string) => warn({ where, path, problem });
  if (!isRecord(value)) report('$', 'a page entry must be an object; rendered from its fallbacks');
  const raw = isRecord(value) ? value : {};

  if (raw.uuid !== undefined && String(raw.uuid) !== key.uuid)
    report('$.uuid', `"${String(raw.uuid).slice(0, 40)}" differs from the page id ${key.uuid}; ignored`);
  const title = optionalText(raw, 'title', report) ?? '';
  const pageTitle = optionalText(raw, 'page_title', report);
  const page: PageEntry = {
    uid: isText(raw.uid) && raw.uid !== '' ? raw.uid : key.uuid,
    uuid: key.uuid,
    locale: key.locale,
    title,
    ...(pageTitle ? { page_title: pageTitle } : {}),
    slug: readSlug(raw.slug, pageTitle || title, report),
    template: readTemplateRef(raw.template, report),
    url_taxonomy: readTaxonomy(raw.url_taxonomy, report),
  };
  const seo = readSeo(raw.seo, report);
  if (seo) page.seo = seo;
  return page;
}

function optionalText(raw: Json, field: string, report: (path: string, problem: string) => void) {
  const value = raw[field];
  if (value === undefined || value === null) return undefined;
  if (isText(value)) return value;
  report(`$.${field}`, `expected text, got ${kindOf(value)}; ignored`);
  return undefined;
}

function readSlug(value: unknown, title: string, report: (path: string, problem: string) => void): string {
  if (isText(value) && SLUG.test(value)) return value;
  const fallback = slugify(isText(value) ? value : '') || slugify(title) || 'page';
  if (value !== undefined) report('$.slug', `not a lower-case slug; "${fallback}" used`);
  return fallback;
}

function readTemplateRef(value: unknown, report: (path: string, problem: string) => void): PageEntry['template'] {
  if (value === undefined || value === null) return [];
  const first = Array.isArray(value) ? value[0] : undefined;
  if (
    isRecord(first) &&
    isText(first._content_type_uid) &&
    CONTENT_TYPE.test(first._content_type_uid) &&
    isText(first.uid) &&
    REF_PART.test(first.uid)
  )
    return [{ _content_type_uid: first._content_type_uid, uid: first.uid }];
  if (!Array.isArray(value) || value.length > 0)
    report('$.template[0]', 'not a reference with _content_type_uid and uid; rendered without template components');
  return [];
}

/** A malformed taxonomy is no taxonomy: the page keeps its slug URL and has no middle breadcrumbs. */
function readTaxonomy(value: unknown, report: (path: string, problem: string) => void): PageEntry['url_taxonomy'] {
  if (value === undefined || value === null) return [];
  const drop = (path: string, problem: string) => {
    report(path, `${problem}; taxonomy ignored`);
    return [];
  };
  if (!Array.isArray(value)) return drop('$.url_taxonomy', `expected a list, got ${kindOf(value)}`);
  const first = value[0];
  if (first === undefined) return [];
  if (!isRecord(first) || !Array.isArray(first.url_taxonomy_segments))
    return drop('$.url_taxonomy[0].url_taxonomy_segments', 'expected a list of segments');
  const segments: TaxonomySegment[] = [];
  for (const [i, item] of first.url_taxonomy_segments.entries()) {
    const path = `$.url_taxonomy[0].url_taxonomy_segments[${i}]`;
    if (!isRecord(item) || !isText(item.segment) || !SLUG.test(item.segment))
      return drop(`${path}.segment`, 'not a lower-case slug');
    segments.push({
      title: isText(item.title) ? item.title : item.segment,
      segment: item.segment,
      exclude_from_breadcrumbs: item.exclude_from_breadcrumbs === true,
      link: Array.isArray(item.link) ? item.link.filter(isLink) : [],
    });
  }
  return [{ url_taxonomy_segments: segments }];
}

const isLink = (value: unknown): value is Link =>
  isRecord(value) && isText(value.url) && (value.url_type === 'internal' || value.url_type === 'external');

function readSeo(value: unknown, report: (path: string, problem: string) => void): PageEntry['seo'] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) {
    report('$.seo', `expected an object, got ${kindOf(value)}; defaults used`);
    return undefined;
  }
  const seo: NonNullable<PageEntry['seo']> = {};
  for (const field of ['meta_title', 'meta_description', 'canonical_url'] as const) {
    const text = value[field];
    if (isText(text)) seo[field] = text;
    else if (text !== undefined && text !== null)
      report(`$.seo.${field}`, `expected text, got ${kindOf(text)}; ignored`);
  }
  if (typeof value.enable_search_indexing === 'boolean') seo.enable_search_indexing = value.enable_search_indexing;
  return seo;
}

const ZONES = ['header_components', 'body_components', 'footer_components'] as const;

/**
 * A template read tolerantly: zones that are not lists are empty, items that are not components
 * (no `_content_type_uid`) are left out. Components' own fields are checked when the page is
 * assembled, where one unusable component costs only itself.
 */
export function readTemplate(value: unknown, where: string, warn: WarnContent): TemplateEntry | null {
  if (!isRecord(value)) {
    warn({ where, path: '$', problem: 'a template must be an object; rendered without template components' });
    return null;
  }
  const report = (path: string, problem: string) => warn({ where, path, problem });
  const template: TemplateEntry = {
    uid: isText(value.uid) ? value.uid : '',
    header_components: [],
    body_components: [],
    footer_components: [],
  };
  if (isText(value.title)) template.title = value.title;
  if (LAYOUTS.includes(value.layout as LayoutName)) template.layout = value.layout as LayoutName;
  else if (value.layout !== undefined) report('$.layout', 'not a known layout; default used');
  const theme = value.breadcrumbs_theme;
  if (isRecord(theme)) {
    template.breadcrumbs_theme = {
      ...(isText(theme.theme) ? { theme: theme.theme } : {}),
      ...(isText(theme.background_color) ? { background_color: theme.background_color } : {}),
    };
  }
  for (const zone of ZONES) {
    const items = value[zone];
    if (items === undefined || items === null) continue;
    if (!Array.isArray(items)) {
      report(`$.${zone}`, `expected a list, got ${kindOf(items)}; zone left empty`);
      continue;
    }
    items.forEach((item, i) => {
      if (isRecord(item) && isText(item._content_type_uid) && item._content_type_uid !== '') {
        const uid = isText(item.uid) && item.uid !== '' ? item.uid : `${zone}-${i}`;
        template[zone].push({ ...item, _content_type_uid: item._content_type_uid, uid } as ComponentEntry);
      } else report(`$.${zone}[${i}]`, 'not a component (no _content_type_uid); left out');
    });
  }
  return template;
}

/** Application configuration read tolerantly: no header unless its title and links are usable. */
export function readApplicationConfiguration(
  value: unknown,
  where: string,
  warn: WarnContent,
): ApplicationConfiguration {
  const raw = isRecord(value) ? value : {};
  if (!isRecord(value)) warn({ where, path: '$', problem: 'expected an object; defaults used' });
  const globals = isRecord(raw.globals) ? raw.globals : {};
  const navigation = isRecord(raw.navigation) ? raw.navigation : {};
  const header = navigation.header;
  let nav: NavigationHeader | undefined;
  if (isRecord(header) && isText(header.title) && Array.isArray(header.links)) {
    nav = {
      title: header.title,
      links: header.links.filter(
        (l): l is { title: string; url: string } => isRecord(l) && isText(l.title) && isText(l.url),
      ),
    };
  } else if (header !== undefined && header !== null) {
    warn({ where, path: '$.navigation.header', problem: 'expected { title, links }; no header' });
  }
  if (globals.dhfIsEnabled !== undefined && typeof globals.dhfIsEnabled !== 'boolean')
    warn({ where, path: '$.globals.dhfIsEnabled', problem: 'expected true or false; false used' });
  return { globals: { dhfIsEnabled: globals.dhfIsEnabled === true }, navigation: nav ? { header: nav } : {} };
}

export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
