import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import { createElement, type ReactElement } from 'react';
import { ComponentList } from '../../client/components/registry.tsx';
import { PageDocument } from '../../client/document.tsx';
import type { MessageCatalog, Translate } from '../../client/i18n/messages.ts';
import { assemblePage } from '../../client/page/assemble.ts';
import type { PageModel } from '../../client/page/model.ts';
import { Render } from '../../client/render/context.ts';
import type { ComponentEntry, PageEntry, TemplateEntry } from '../../common/content.ts';
import { languageOf } from '../../common/locales.ts';
import { isMultilingual, type SitesConfig } from '../../common/site.ts';
import { pageIdForEntry } from '../content/lookup.ts';
import { isValidPreviewHash } from '../content/paths.ts';
import { ContentError, type ContentService } from '../content/service.ts';
import type { WarnContent } from '../content/tolerant.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { PreviewConfig } from '../preview/config.ts';
import { previewCsp, previewScript } from '../preview/page.ts';
import { AssembledPageMemo } from '../render/assembled-memo.ts';
import type { AssetManifest } from '../render/assets.ts';
import { createRenderContext } from '../render/context.ts';
import { sendError } from '../render/error-page.ts';
import { type CacheFill, cacheKey, collect, type HtmlCache, RenderedPage } from '../render/html-cache.ts';
import { throwingComponents, withoutFailed, withoutUnusable } from '../render/isolate.ts';
import { loadTemplate, PageLinksMemo, pageLinks, watchFaults } from '../render/page-data.ts';
import { streamDocument } from '../render/stream.ts';
import { canonicalPagePath, canonicalRedirect } from '../routing/canonical.ts';
import type { RenderDecision } from '../routing/decision.ts';
import { languageCookie, shouldSetLanguageCookie } from '../routing/language-cookie.ts';
import { decideRoute } from '../routing/route.ts';
import { localePrefix } from '../routing/strategy.ts';
import { SPECULATION_RULES_URL } from './builds.ts';

export interface PageRouteDeps {
  sites: SitesConfig;
  content: ContentService;
  messages: MessageCatalog;
  assets: AssetManifest;
  /** Rendered published pages; absent to render every request (tests of rendering itself). */
  htmlCache?: HtmlCache;
  dev: boolean;
  /** GRAPHQL_URL: the data backend islands use instead of this site's `/graphql`. */
  dataEndpoint?: string;
  /** Live preview (issue 9): editor origins and stack; without it no page carries the preview script. */
  preview?: PreviewConfig;
  /** hreflang and switcher links per page (pageRoutes makes one); absent: worked out every time. */
  links?: PageLinksMemo;
  /** Assembled published pages (pageRoutes makes one); absent: loaded and assembled every time. */
  assembled?: AssembledPageMemo;
  /** Told each render's time; absent when metrics are off. */
  renderTimes?: Pick<Metrics, 'render'>;
  /** How long page links and assembled pages are kept when no change is announced. */
  contentTtlMs: number;
}

const HOME_PAGE_ID = '125';
/** How long a page waits for its template, app configuration and links once it has its entry (issue 10). */
const SECONDARY_READS_BUDGET_MS = 1_000;

/** One deadline for several reads: each past it resolves to its fallback, and `missed` tells. */
function readBudget(ms: number) {
  let expire: () => void = () => {};
  const expired = new Promise<void>((resolve) => {
    expire = resolve;
  });
  const timer = setTimeout(() => expire(), ms);
  const budget = {
    missed: false,
    within<T>(read: Promise<T>, fallback: () => T): Promise<T> {
      return Promise.race([
        read,
        expired.then(() => {
          budget.missed = true;
          return fallback();
        }),
      ]);
    },
    done: () => clearTimeout(timer),
  };
  return budget;
}
/** Published pages: a CDN may keep them briefly and serve stale while it revalidates (issue 10). */
const PUBLIC_CACHE = 'public, max-age=0, s-maxage=300, stale-while-revalidate=3600';
const PRIVATE = 'private, no-store';

/** `{path}/_payload.json` is the page at `{path}` as JSON (issue 5), under the same URL rules. */
const PAYLOAD_SUFFIX = '/_payload.json';

function splitUrl(url: string): { rawPath: string; query: string; payload: boolean } {
  const q = url.indexOf('?');
  let rawPath = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? '' : url.slice(q);
  // Only the path decides: `/?/_payload.json` is the home page, not its payload (security case 4).
  const payload = rawPath.endsWith(PAYLOAD_SUFFIX);
  if (payload) rawPath = rawPath.slice(0, -PAYLOAD_SUFFIX.length) || '/';
  return { rawPath, query, payload };
}

/** A redirect of a payload request points at the payload of the target page. */
function payloadLocation(location: string, payload: boolean): string {
  if (!payload) return location;
  const q = location.indexOf('?');
  const path = q === -1 ? location : location.slice(0, q);
  return `${path === '/' ? '' : path}${PAYLOAD_SUFFIX}${q === -1 ? '' : location.slice(q)}`;
}

export function pageRoutes(app: FastifyInstance, routeDeps: PageRouteDeps): void {
  // Page links and assembled pages are kept until content changes, or as long as the source's own cache
  const { changes } = routeDeps.content;
  const keep = { maxEntries: 5000, ttlMs: routeDeps.contentTtlMs };
  const links = routeDeps.links ?? new PageLinksMemo(keep);
  if (!routeDeps.links) changes.subscribe(() => links.clear());
  const assembled = routeDeps.assembled ?? new AssembledPageMemo(keep);
  if (!routeDeps.assembled) changes.subscribe(() => assembled.clear());
  const deps: PageRouteDeps = { ...routeDeps, links, assembled };
  const { sites } = deps;

  app.get('/*', async (request, reply) => {
    const site = request.site;
    const { rawPath, query, payload } = splitUrl(request.raw.url ?? '/');
    const decision = decideRoute({
      rawPath,
      query,
      site,
      fallbackLocale: sites.fallbackLocale,
      cookieLanguage: request.cookies[sites.languageCookieName],
      acceptLanguage: request.headers['accept-language'],
    });
    for (const warning of decision.warnings ?? []) request.log.warn({ host: site.host }, warning);

    if (decision.kind === 'redirect') {
      reply.header('cache-control', decision.privateCache ? PRIVATE : 'public, max-age=3600');
      if (decision.varyOn) reply.header('vary', decision.varyOn.join(', '));
      return reply.redirect(payloadLocation(decision.location, payload), decision.status);
    }
    if (decision.kind === 'error') {
      if (payload)
        return reply.status(decision.status).header('cache-control', 'no-store').send({ error: decision.message });
      return sendError(reply, deps, {
        status: decision.status,
        message: decision.message,
        path: rawPath,
        locale: site.defaultLocale,
      });
    }
    return renderPage(request, reply, deps, decision, { rawPath, query, payload });
  });
}

/** The preview hash of a live-preview request, when it is one (contract section 6). */
function previewHash(request: FastifyRequest): string | undefined {
  const hash = (request.query as Record<string, unknown>).live_preview;
  return typeof hash === 'string' && isValidPreviewHash(hash) ? hash : undefined;
}

/**
 * Which page a decision renders: the home page, the content page's id, or the live route's entry
 * (the editor's `entry_uid`, a page id or a CMS uid; else a page id in the path; else the home page).
 * `{ unknown }` names an entry the editor asked for that no page has: a 404, never another page.
 */
async function pageIdOf(
  request: FastifyRequest,
  content: ContentService,
  decision: RenderDecision,
): Promise<string | { unknown: string } | null> {
  if (decision.route === 'home') return HOME_PAGE_ID;
  if (decision.route === 'content') return decision.pageId ?? null;
  const entry = (request.query as Record<string, unknown>).entry_uid;
  const wanted = typeof entry === 'string' && entry !== '' ? entry : decision.contentUrl;
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
      /** A content read failed and the page was built without it: serve it, never cache it (issue 10). */
      degraded: boolean;
    };

/** Loads and assembles one page: everything up to, not including, turning it into bytes. */
export async function buildPage(
  request: FastifyRequest,
  deps: PageRouteDeps,
  decision: RenderDecision,
  { rawPath, query }: { rawPath: string; query: string },
  preview: string | undefined,
): Promise<Outcome> {
  const { sites, messages, assets } = deps;
  // Published pages come assembled from the memo when content has not changed since (issue 10).
  const memoKey =
    deps.assembled && preview === undefined && decision.route !== 'live'
      ? AssembledPageMemo.key(request.site.host, decision.locale, decision.route, decision.prefix, rawPath)
      : undefined;
  const kept = memoKey ? deps.assembled?.get(memoKey) : undefined;
  if (kept)
    return { kind: 'page', ...kept, element: pageElement(deps, kept.model, kept.t, request.log), degraded: false };
  // Issue 10: every failed read counts, even those swallowed below, so a degraded page is never cached.
  const watched = watchFaults(deps.content);
  const content = watched.content;
  const site = request.site;
  const { locale } = decision;
  const id = await pageIdOf(request, content, decision);
  if (!id) return { kind: 'error', status: 404, message: 'Page UUID is missing' };
  if (typeof id === 'object') return { kind: 'error', status: 404, message: `Page ${id.unknown} not found` };
  const uuid = id;

  const page = await content.getPage(uuid, locale, preview);
  if (!page) return { kind: 'error', status: 404, message: `Page ${uuid} not found` };
  if (decision.route === 'content') {
    const redirect = canonicalRedirect(rawPath, query, canonicalPagePath(site, locale, page, decision.prefix));
    if (redirect) return { kind: 'redirect', location: redirect.location, status: redirect.status };
  }
  // Issue 10: a slow upstream may hold the page itself, not the parts around it: past the budget the
  // page renders without them (degraded: never cached), and their reads go on to fill the caches.
  const budget = readBudget(SECONDARY_READS_BUDGET_MS);
  const fallbackConfig = { globals: { dhfIsEnabled: false }, navigation: {} };
  const [{ template, type, source }, appConfig, t, links] = await Promise.all([
    budget.within(loadTemplate(content, page, locale, preview, request.log), () => ({
      template: null,
      type: page.template[0]?._content_type_uid ?? 'page_template',
      source: '',
    })),
    budget.within(
      content.getApplicationConfiguration(site.host, locale).catch((error: unknown) => {
        request.log.error({ err: error, locale }, 'Failed to fetch applicationConfiguration');
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
  if (budget.missed) request.log.warn({ uuid, locale }, 'Content reads past their budget; page rendered without them');
  const prefix = localePrefix(site, locale);
  const canonicalPath = uuid === HOME_PAGE_ID ? prefix || '/' : canonicalPagePath(site, locale, page);
  const warn: WarnContent = (warning) => request.log.warn(warning, warning.problem);
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
      homeHref: prefix || '/',
      links: {
        prefix,
        languages: isMultilingual(site) ? site.locales.map(languageOf) : [],
        hosts: [site.host, ...site.aliases].map((h) => h.toLowerCase()),
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
  // Live preview (issue 9): the layer's script on preview responses only, never on plain pages.
  if ((preview !== undefined || decision.route === 'live') && deps.preview && assets.previewScript)
    model.previewScript = previewScript(deps.preview, assets.previewScript);
  const element = pageElement(deps, model, t, request.log);
  const degraded = watched.faulted() || budget.missed;
  if (memoKey && !degraded) deps.assembled?.set(memoKey, { model, page, template, t });
  return { kind: 'page', model, element, page, template, degraded };
}

/**
 * The React tree of an assembled page. Render state (cited footnotes) lives in its context, so each
 * render needs its own element; the bench's renderToString floor renders exactly this tree.
 */
export function pageElement(
  deps: Pick<PageRouteDeps, 'assets' | 'dev' | 'dataEndpoint'>,
  model: PageModel,
  t: Translate,
  log: Pick<FastifyBaseLogger, 'warn'>,
): ReactElement {
  const context = pageRenderContext(deps, model, t);
  return createElement(
    Render.Provider,
    { value: context },
    createElement(PageDocument, {
      model,
      assets: deps.assets.documentAssets(model.layout, model.islands),
      runtimeData: {
        build: deps.assets.build,
        messages: { updateAvailable: t('build.updateAvailable'), reload: t('build.reload') },
      },
      onUnknown: deps.dev
        ? (kind: string) => log.warn({ type: kind }, 'Unknown component type renders nothing')
        : undefined,
    }),
  );
}

function pageRenderContext(
  deps: Pick<PageRouteDeps, 'assets' | 'dev' | 'dataEndpoint'>,
  model: PageModel,
  t: Translate,
) {
  return createRenderContext({
    locale: model.locale,
    t,
    preview: model.preview,
    assets: deps.assets,
    footnote: (id) => model.footnotes.get(id),
    firstHeroUid: model.zones.body.find((c) => c._content_type_uid === 'hero')?.uid,
    dev: deps.dev,
    dataEndpoint: deps.dataEndpoint,
  });
}

/** One component of an assembled page on its own, in the page's render context. */
function componentElement(
  deps: Pick<PageRouteDeps, 'assets' | 'dev' | 'dataEndpoint'>,
  model: PageModel,
  t: Translate,
  component: ComponentEntry,
  zone: string,
): ReactElement {
  return createElement(
    Render.Provider,
    { value: pageRenderContext(deps, model, t) },
    createElement(ComponentList, { components: [component], zone: `${zone}_components`, base: model.cslpBase }),
  );
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

async function renderPage(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: PageRouteDeps,
  decision: RenderDecision,
  { rawPath, query, payload }: { rawPath: string; query: string; payload: boolean },
): Promise<FastifyReply> {
  const { sites, htmlCache } = deps;
  const site = request.site;
  const { locale } = decision;
  const preview = previewHash(request);
  // Live preview (issue 9): only the editor may frame a preview response, and it is never cached.
  const livePreview = preview !== undefined || decision.route === 'live';
  if (livePreview && deps.preview) {
    const csp = String(reply.getHeader('content-security-policy') ?? '');
    reply.header('content-security-policy', previewCsp(csp, deps.preview.editorOrigins));
    reply.removeHeader('x-frame-options');
  }
  const onRenderError = (error: unknown) => request.log.error({ err: error }, 'Render error after the shell');
  // Published pages go through the HTML cache; preview, the live route and payloads never do.
  const cacheable = htmlCache !== undefined && preview === undefined && decision.route !== 'live' && !payload;

  let outcome: Outcome | undefined;
  let cached: CacheFill | undefined;
  try {
    if (cacheable) {
      cached = await htmlCache.get(cacheKey(site.host, locale, rawPath), async () => {
        outcome = await buildPage(request, deps, decision, { rawPath, query }, preview);
        // Not cached: errors, redirects, and pages built while a read failed (shared with the
        // requests waiting on this render, never kept: a stale copy stays served).
        if (outcome.kind !== 'page') return undefined;
        const started = performance.now();
        const body = await collect(await streamDocument(outcome.element, onRenderError));
        deps.renderTimes?.render('cached', (performance.now() - started) / 1000);
        return new RenderedPage(body, { transient: outcome.degraded });
      });
      // A concurrent fill that was not cacheable (an error, a redirect) gave nothing to share.
      if (!cached && !outcome) outcome = await buildPage(request, deps, decision, { rawPath, query }, preview);
    } else {
      outcome = await buildPage(request, deps, decision, { rawPath, query }, preview);
    }
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    request.log.error({ err: error, where: error.where, code: error.code }, error.message);
    const upstream = error.code === 'CONTENT_UPSTREAM';
    outcome = {
      kind: 'error',
      status: upstream ? 503 : 500,
      message: upstream ? 'Service Unavailable' : 'Internal Server Error',
    };
  }

  if (outcome?.kind === 'redirect') {
    reply.header('cache-control', 'public, max-age=3600');
    return reply.redirect(payloadLocation(outcome.location, payload), outcome.status);
  }
  if (outcome?.kind === 'error') {
    if (payload)
      return reply.status(outcome.status).header('cache-control', 'no-store').send({ error: outcome.message });
    return sendError(reply, deps, { status: outcome.status, message: outcome.message, path: rawPath, locale });
  }

  const setsCookie = shouldSetLanguageCookie(site, decision.language, request.cookies[sites.languageCookieName]);
  if (setsCookie && decision.language) {
    const cookie = languageCookie(site, decision.language, sites.languageCookieName);
    reply.setCookie(cookie.name, cookie.value, cookie.options);
  }
  const degraded =
    (outcome?.kind === 'page' && outcome.degraded) || (cached instanceof RenderedPage && cached.transient);
  const personal = livePreview || setsCookie || decision.privateCache || degraded;
  reply.header('cache-control', personal ? PRIVATE : PUBLIC_CACHE);
  if (decision.varyOn) reply.header('vary', decision.varyOn.join(', '));
  // Preview answers, the live route's included, are for the editor: never indexed.
  if (livePreview) reply.header('x-robots-tag', 'noindex');

  if (payload && outcome?.kind === 'page') {
    const { model } = outcome;
    return reply.send({
      locale,
      page: outcome.page,
      template: outcome.template,
      head: model.head,
      heading: model.heading,
      breadcrumbs: model.breadcrumbs,
      footnotes: model.footnotes.footnotes,
      components: model.zones,
    });
  }
  reply.status(200).type('text/html; charset=utf-8');
  // Declarative prefetching for browsers that support it: no script on the page (issue 7).
  reply.header('speculation-rules', SPECULATION_RULES_URL);
  if (cached instanceof RenderedPage) return sendRendered(request, reply, cached);
  if (outcome?.kind !== 'page') throw new Error('page render produced no outcome');
  const started = performance.now();
  const document = await streamDocument(outcome.element, onRenderError);
  deps.renderTimes?.render('streamed', (performance.now() - started) / 1000);
  return reply.send(document);
}

/** A cached page: 304 on a matching ETag, else the body in the best encoding the client accepts. */
async function sendRendered(
  request: FastifyRequest,
  reply: FastifyReply,
  rendered: RenderedPage,
): Promise<FastifyReply> {
  // Issue 10: a page built while a read failed is sent as rendered (compressed like any dynamic page).
  if (rendered.transient) return reply.send(rendered.body);
  reply.header('etag', rendered.etag);
  reply.header('vary', [reply.getHeader('vary'), 'Accept-Encoding'].filter(Boolean).join(', '));
  if (request.headers['if-none-match'] === rendered.etag) return reply.status(304).send();
  const encoding = new Negotiator(request.raw).encoding(['br', 'gzip', 'identity']);
  if (encoding === 'br' || encoding === 'gzip') {
    reply.header('content-encoding', encoding);
    return reply.send(await rendered.encoded(encoding));
  }
  return reply.send(rendered.body);
}

function decodeSafe(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
