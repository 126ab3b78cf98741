import type { FastifyBaseLogger } from 'fastify';
import type { ReactElement } from 'react';
import type { MessageCatalog } from '../../client/i18n/messages.ts';
import { assemblePage } from '../../client/page/assemble.ts';
import type { PageModel } from '../../client/page/model.ts';
import type { ApplicationConfiguration, ComponentEntry, PageEntry, TemplateEntry } from '../../common/content.ts';
import { buildRequestContext, type Site, type SitesConfig } from '../../common/site.ts';
import { slashForm } from '../../common/trailing-slash.ts';
import { sharedByUrl } from '../content/app-config.ts';
import { pageIdForEntry } from '../content/lookup.ts';
import type { ContentService } from '../content/service.ts';
import type { WarnContent } from '../content/tolerant.ts';
import { siteErrors } from '../errors.ts';
import type { ImageSrcSet } from '../images/srcset.ts';
import type { PreviewConfig } from '../preview/config.ts';
import { previewScript } from '../preview/page.ts';
import { canonicalPagePath, canonicalRedirect } from '../routing/canonical.ts';
import type { RenderDecision } from '../routing/decision.ts';
import { HOME_PAGE_ID } from '../routing/route-shape.ts';
import { localePrefix } from '../routing/strategy.ts';
import { AssembledPageMemo } from './assembled-memo.ts';
import type { AssetManifest } from './assets.ts';
import { throwingComponents, withoutFailed, withoutUnusable } from './isolate.ts';
import { loadTemplate, type PageLinksMemo, pageLinks, watchFaults } from './page-data.ts';
import { componentElement, pageElement } from './page-element.ts';
import { readBudget } from './read-budget.ts';

/** What building a page reads: configuration, content, messages, the asset map and the memos. */
export interface PageDeps {
  sites: SitesConfig;
  content: ContentService;
  messages: MessageCatalog;
  assets: AssetManifest;
  dev: boolean;
  /** GRAPHQL_URL: the data backend islands use instead of this site's `/graphql`. */
  dataEndpoint?: string;
  /** Editor origins and stack; without it no page carries the preview script. */
  preview?: PreviewConfig;
  /** hreflang and switcher links per page; absent: worked out every time. */
  links?: PageLinksMemo;
  /** Assembled published pages; absent: loaded and assembled every time. */
  assembled?: AssembledPageMemo;
  /** Image `srcset`s through the image route; absent: only CMS-hosted images get one. */
  imageSrcSet?: ImageSrcSet;
}

/**
 * One page request as plain data: what the pipeline reads of a request, and nothing of HTTP, so the
 * bench's floor and tests call it without a framework (the route fills it from Fastify's request).
 */
export interface PageRequest {
  site: Site;
  decision: RenderDecision;
  /** As received, percent-encoded, no query. */
  rawPath: string;
  /** '' or '?a=b' as received. */
  query: string;
  /** The visitor's Cookie header: an application configuration may be made for it. */
  cookie?: string | undefined;
  /** The editor's `entry_uid` (the live route). */
  entryUid?: string | undefined;
  /** A valid live-preview hash: the page is built from drafts. */
  preview?: string | undefined;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
}

/** How long a page waits for its template, app configuration and links once it has its entry. */
const SECONDARY_READS_BUDGET_MS = 1_000;

/**
 * Which page a decision renders: the home page, the content page's id, or the live route's entry
 * (the editor's `entry_uid`, a page id or a CMS uid; else a page id in the path; else the home page).
 * `{ unknown }` names an entry the editor asked for that no page has: a 404, never another page.
 */
async function pageIdOf(
  content: ContentService,
  decision: RenderDecision,
  entryUid: string | undefined,
): Promise<string | { unknown: string } | null> {
  if (decision.route === 'home') return HOME_PAGE_ID;
  if (decision.route === 'content') return decision.pageId ?? null;
  const wanted = entryUid || decision.contentUrl;
  if (!wanted) return HOME_PAGE_ID;
  return (await pageIdForEntry(content, decision.locale, wanted)) ?? { unknown: wanted };
}

export type Outcome =
  | { kind: 'redirect'; location: string; status: 301 | 302 | 307 | 308 }
  | { kind: 'error'; status: number; message: string }
  | {
      kind: 'page';
      model: PageModel;
      element: ReactElement;
      page: PageEntry;
      template: TemplateEntry | null;
      /** A content read failed and the page was built without it: serve it, never cache it. */
      degraded: boolean;
      /** Built from an application configuration made for this visitor's cookie: private, never cached. */
      personal: boolean;
    };

/** Loads and assembles one page: everything up to, not including, turning it into bytes. */
export async function buildPage(deps: PageDeps, request: PageRequest): Promise<Outcome> {
  const { sites, messages, assets } = deps;
  const { site, decision, rawPath, query, cookie, preview, log } = request;
  // Throws ConfigurationNotAvailable when the request has no storefront serving its locale.
  const context = buildRequestContext(site, decision.locale);
  // Published pages come assembled from the memo when content has not changed since.
  const memoKey =
    deps.assembled &&
    preview === undefined &&
    decision.route !== 'live' &&
    sharedByUrl(deps.content, context.requestHost, decision.locale, cookie)
      ? AssembledPageMemo.key(context.requestHost, decision.locale, decision.route, decision.prefix, rawPath)
      : undefined;
  const kept = memoKey ? deps.assembled?.get(memoKey) : undefined;
  if (kept)
    return {
      kind: 'page',
      ...kept,
      element: pageElement(deps, kept.model, kept.t, log),
      degraded: false,
      personal: false,
    };
  // Every failed read counts, even those swallowed below, so a degraded page is never cached.
  const watched = watchFaults(deps.content);
  const content = watched.content;
  const { locale } = decision;
  const id = await pageIdOf(content, decision, request.entryUid);
  if (!id) return { kind: 'error', status: 404, message: 'Page UUID is missing' };
  if (typeof id === 'object')
    return { kind: 'error', status: 404, message: siteErrors.pageNotFound(id.unknown).message };
  const uuid = id;

  const page = await content.getPage(uuid, locale, preview);
  if (!page) return { kind: 'error', status: 404, message: siteErrors.pageNotFound(uuid).message };
  if (decision.route === 'content') {
    const redirect = canonicalRedirect(rawPath, query, canonicalPagePath(site, locale, page, decision.prefix));
    if (redirect) return { kind: 'redirect', location: redirect.location, status: redirect.status };
  }
  // A slow upstream may hold the page itself, not the parts around it: past the budget the
  // page renders without them (degraded: never cached), and their reads go on to fill the caches.
  const budget = readBudget(SECONDARY_READS_BUDGET_MS);
  const fallbackConfig: ApplicationConfiguration = { globals: { dhfIsEnabled: false }, navigation: {} };
  const [{ template, type, source }, appConfig, t, links] = await Promise.all([
    budget.within(loadTemplate(content, page, locale, preview, log), () => ({
      template: null,
      type: page.template[0]?._content_type_uid ?? 'page_template',
      source: '',
    })),
    budget.within(
      content.getApplicationConfiguration(context.requestHost, locale, cookie).catch((error: unknown) => {
        log.error({ err: error, locale }, 'Failed to fetch applicationConfiguration');
        return fallbackConfig;
      }),
      () => fallbackConfig,
    ),
    messages.translator(locale),
    budget.within(
      deps.links ? deps.links.get(content, sites, site, locale, uuid) : pageLinks(content, sites, site, locale, uuid),
      () => ({ alternates: [], languages: [], countries: [] }),
    ),
  ]);
  budget.done();
  if (budget.missed) log.warn({ uuid, locale }, 'Content reads past their budget; page rendered without them');
  const prefix = localePrefix(site, locale);
  const canonicalPath = uuid === HOME_PAGE_ID ? slashForm(site, prefix || '/') : canonicalPagePath(site, locale, page);
  const warn: WarnContent = (warning) => log.warn(warning, warning.problem);
  const assemble = (usable: TemplateEntry | null) =>
    assemblePage({
      page,
      template: usable,
      templateType: type,
      appConfig,
      locale,
      path: decodeSafe(rawPath),
      t,
      siteName: sites.siteName,
      separator: sites.titleSeparator,
      canonicalUrl: site.url + canonicalPath,
      home: uuid === HOME_PAGE_ID,
      siteUrl: site.url,
      siteDescription: site.description,
      twitterSite: site.twitter,
      alternates: links.alternates,
      homeHref: slashForm(site, prefix || '/'),
      links: {
        prefix,
        languages: context.multiLingualDomain ? context.allowedLanguages : [],
        hosts: [site.host, ...site.aliases].map((h) => h.toLowerCase()),
        trailingSlash: site.trailingSlash === true,
      },
      languages: links.languages,
      countries: links.countries,
      preview: preview !== undefined,
      ...(decision.route === 'live' ? { forceLayout: 'minimal' as const } : {}),
    });
  // One bad component costs one component: unusable fields first, then a render of each on its own.
  let usable = template && withoutUnusable(template, source, warn);
  let model = assemble(usable);
  const failures = throwingComponents(model, (component, zone) => componentElement(deps, model, t, component, zone));
  if (failures.length > 0 && usable) {
    for (const { component, error } of failures)
      warn({
        where: source,
        uid: component.uid,
        path: componentPath(template ?? usable, component),
        problem: `throws while rendering (${(error instanceof Error ? error.message : String(error)).slice(0, 200)}); component left out`,
      });
    usable = withoutFailed(usable, failures);
    model = assemble(usable);
  }
  // Live preview: the layer's script on preview responses only, never on plain pages.
  if ((preview !== undefined || decision.route === 'live') && deps.preview && assets.previewScript)
    model.previewScript = previewScript(deps.preview, assets.previewScript, {
      hosts: [site.host, ...site.aliases].map((h) => h.toLowerCase()),
      storefrontHosts: new Set(sites.sites.flatMap((s) => [s.host, ...s.aliases]).map((h) => h.toLowerCase())),
      t,
    });
  const element = pageElement(deps, model, t, log);
  const degraded = watched.faulted() || budget.missed;
  const personal = appConfig.personal === true;
  if (memoKey && !degraded && !personal) deps.assembled?.set(memoKey, { model, page, template, t });
  return { kind: 'page', model, element, page, template, degraded, personal };
}

/** `$.body_components[2]`: where a component sits in its template. */
function componentPath(template: TemplateEntry, component: ComponentEntry): string {
  for (const zone of ['header_components', 'body_components', 'footer_components'] as const) {
    const index = template[zone].findIndex(
      (c) => c._content_type_uid === component._content_type_uid && c.uid === component.uid,
    );
    if (index !== -1) return `$.${zone}[${index}]`;
  }
  return '$';
}

function decodeSafe(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
