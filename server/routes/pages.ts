import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ConfigurationNotAvailable, type Site } from '../../common/site.ts';
import { sharedByUrl } from '../content/app-config.ts';
import { isValidPreviewHash } from '../content/paths.ts';
import { ContentError } from '../content/service.ts';
import { payloadError } from '../errors.ts';
import { sendApiError } from '../http/api-reply.ts';
import { limiterOf } from '../http/rate-limits.ts';
import type { Metrics } from '../observability/metrics.ts';
import { previewCsp } from '../preview/page.ts';
import { AssembledPageMemo } from '../render/assembled-memo.ts';
import { buildPage, type Outcome, type PageDeps, type PageRequest } from '../render/build-page.ts';
import { pageTagHeaders, pageTags } from '../render/cache-tags.ts';
import { sendError } from '../render/error-page.ts';
import { type CacheFill, cacheKey, collect, type HtmlCache, RenderedPage } from '../render/html-cache.ts';
import { PageLinksMemo } from '../render/page-data.ts';
import { streamDocument } from '../render/stream.ts';
import type { RenderDecision } from '../routing/decision.ts';
import { RouteDecisions } from '../routing/decision-memo.ts';
import { isCrossSiteFrame, languageCookie, shouldSetLanguageCookie } from '../routing/language-cookie.ts';
import { normalizeEscapes, parsePath } from '../routing/path.ts';
import { buildPathLocation, sendRedirect } from '../routing/redirect.ts';
import { localeOfUrl } from '../routing/route.ts';
import { SPECULATION_RULES_URL } from './builds.ts';
import { PRIVATE, PUBLIC_CACHE, PUBLIC_REDIRECT, sendRendered } from './page-reply.ts';
import { ACCEPT_CH, SPECULATION_VARY, speculationAllowed } from './speculation.ts';

export interface PageRouteDeps extends PageDeps {
  /** Rendered published pages; absent to render every request (tests of rendering itself). */
  htmlCache?: HtmlCache;
  /** Told each render's time; absent when metrics are off. */
  renderTimes?: Pick<Metrics, 'render'>;
  /** How long page links and assembled pages are kept when no change is announced. */
  contentTtlMs: number;
}

/** `{path}/_payload.json` is the page at `{path}` as JSON, under the same URL rules. */
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

/**
 * Where a path spelled with needless escapes redirects, through the redirect door: only when the
 * path names a possible page and the door keeps it as it is (no `//`, `\\`, dot segments).
 */
function canonicalSpelling(normalPath: string, query: string): string | null {
  if (!parsePath(normalPath).ok || buildPathLocation(normalPath) !== normalPath) return null;
  return buildPathLocation(normalPath + query);
}

/** A redirect of a payload request points at the payload of the target page. */
function payloadLocation(location: string, payload: boolean): string {
  if (!payload) return location;
  const q = location.indexOf('?');
  const path = q === -1 ? location : location.slice(0, q);
  return `${path === '/' ? '' : path}${PAYLOAD_SUFFIX}${q === -1 ? '' : location.slice(q)}`;
}

export const pageRoutes: FastifyPluginAsync<PageRouteDeps> = async (app, routeDeps) => {
  // Page links and assembled pages are kept until content changes, or as long as the source's own cache
  const { changes } = routeDeps.content;
  const keep = { maxEntries: 5000, ttlMs: routeDeps.contentTtlMs };
  const links = routeDeps.links ?? new PageLinksMemo(keep);
  if (!routeDeps.links) changes.subscribe(() => links.clear());
  const assembled = routeDeps.assembled ?? new AssembledPageMemo(keep);
  if (!routeDeps.assembled) changes.subscribe(() => assembled.clear());
  const deps: PageRouteDeps = { ...routeDeps, links, assembled };
  const { sites } = deps;
  const limitUncached = limiterOf(app, 'uncachedPages');
  const decisions = new RouteDecisions();

  app.get('/*', async (request, reply) => {
    const site = request.site;
    // No storefront, no request context: the error handler answers "Configuration not available".
    if (!site) throw new ConfigurationNotAvailable('Configuration not available: the request has no storefront');
    const url = request.raw.url ?? '/';
    const { rawPath, query, payload } = splitUrl(url);
    // One spelling per page: `dish%77asher` is `dishwasher`, never a page (and cache entry) of its own.
    // Only a path that can name a page is respelled: `//evil.example/%7e` gets the 404 of its kind.
    const normalPath = normalizeEscapes(rawPath);
    const respelled = normalPath !== rawPath && canonicalSpelling(normalPath, query);
    if (respelled) {
      reply.header('cache-control', PUBLIC_REDIRECT);
      return sendRedirect(reply, payloadLocation(respelled, payload), 301);
    }
    const decision = decisions.decide({
      rawPath,
      query,
      site,
      fallbackLocale: sites.fallbackLocale,
      cookieLanguage: request.cookies[sites.languageCookieName],
      acceptLanguage: request.headers['accept-language'],
    });
    for (const warning of decision.warnings ?? []) request.log.warn({ host: site.host }, warning);
    // What no cache can answer is limited per client; published pages never are.
    const uncached =
      payload || previewHash(request) !== undefined || (decision.kind === 'render' && decision.route === 'live');
    if (uncached) await limitUncached?.call(app, request, reply);
    if (decision.kind === 'render') return renderPage(request, reply, deps, decision, { rawPath, query, payload });
    return sendNotPage(reply, deps, decision, { site, rawPath, payload, locale: localeOfUrl(site, rawPath) });
  });
};

/** Everything the route answers that is not a page, with one cache policy for the router's and the page's. */
function sendNotPage(
  reply: FastifyReply,
  deps: PageRouteDeps,
  answer: Exclude<Outcome, { kind: 'page' }> & { varyOn?: string[]; privateCache?: boolean },
  { site, rawPath, payload, locale }: { site: Site; rawPath: string; payload: boolean; locale: string },
): FastifyReply | Promise<FastifyReply> {
  if (answer.kind === 'redirect') {
    reply.header('cache-control', answer.privateCache ? PRIVATE : PUBLIC_REDIRECT);
    if (answer.varyOn) reply.header('vary', answer.varyOn.join(', '));
    return sendRedirect(reply, payloadLocation(answer.location, payload), answer.status);
  }
  if (payload) return sendApiError(reply, payloadError(answer.status, answer.message));
  return sendError(reply, deps, { status: answer.status, message: answer.message, path: rawPath, locale, site });
}

/** The preview hash of a live-preview request, when it is one. */
function previewHash(request: FastifyRequest): string | undefined {
  const hash = (request.query as Record<string, unknown>).live_preview;
  return typeof hash === 'string' && isValidPreviewHash(hash) ? hash : undefined;
}

/** What the page pipeline reads of a Fastify request, as plain data. */
function pageRequest(
  request: FastifyRequest,
  decision: RenderDecision,
  { rawPath, query }: { rawPath: string; query: string },
  preview: string | undefined,
): PageRequest {
  const entry = decision.route === 'live' ? (request.query as Record<string, unknown>).entry_uid : undefined;
  return {
    site: request.site,
    decision,
    rawPath,
    query,
    cookie: request.headers.cookie,
    entryUid: typeof entry === 'string' && entry !== '' ? entry : undefined,
    preview,
    log: request.log,
  };
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
  // Live preview: only the editor may frame a preview response, and it is never cached.
  const livePreview = preview !== undefined || decision.route === 'live';
  if (livePreview && deps.preview) {
    const csp = String(reply.getHeader('content-security-policy') ?? '');
    reply.header('content-security-policy', previewCsp(csp, deps.preview.editorOrigins));
    reply.removeHeader('x-frame-options');
    // Live Preview in a new tab (live-preview-utils 4.x): the editor that opened the page must stay its opener.
    reply.header('cross-origin-opener-policy', 'unsafe-none');
  }
  // React holds this until a timer of its own fires, turns after the reply: the logger, not the request.
  const log = request.log;
  const onRenderError = (error: unknown) => log.error({ err: error }, 'Render error after the shell');
  // Published pages go through the HTML cache; preview, the live route and payloads never do.
  const cacheable =
    htmlCache !== undefined &&
    preview === undefined &&
    decision.route !== 'live' &&
    !payload &&
    sharedByUrl(deps.content, site.host, locale, request.headers.cookie);

  const input = pageRequest(request, decision, { rawPath, query }, preview);
  let outcome: Outcome | undefined;
  let cached: CacheFill | undefined;
  try {
    if (cacheable) {
      cached = await htmlCache.get(cacheKey(site.host, locale, rawPath), async () => {
        outcome = await buildPage(deps, input);
        // Not cached: errors, redirects, and pages built while a read failed (shared with the
        // requests waiting on this render, never kept: a stale copy stays served).
        // A page made for one visitor's cookie is not even shared with the requests waiting on it.
        if (outcome.kind !== 'page' || outcome.personal) return undefined;
        const started = performance.now();
        const body = await collect(await streamDocument(outcome.element, onRenderError));
        deps.renderTimes?.render('cached', (performance.now() - started) / 1000);
        return new RenderedPage(body, {
          transient: outcome.degraded,
          tags: pageTags(site.host, outcome.page, outcome.template),
        });
      });
      // A concurrent fill that was not cacheable (an error, a redirect) gave nothing to share.
      if (!cached && !outcome) outcome = await buildPage(deps, input);
    } else {
      outcome = await buildPage(deps, input);
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

  if (outcome && outcome.kind !== 'page') {
    // A canonical redirect keeps what the router's decision said about detection and caching.
    const answer = { ...outcome, varyOn: decision.varyOn, privateCache: decision.privateCache || livePreview };
    return sendNotPage(reply, deps, answer, { site, rawPath, payload, locale });
  }

  const setsCookie = shouldSetLanguageCookie(site, decision.language, request.cookies[sites.languageCookieName]);
  if (setsCookie && decision.language) {
    // SameSite=None only where another site may frame the page (the editor, on a preview): on a page
    // that refuses framing it would only let any site set the visitor's language.
    const cookie = languageCookie(site, decision.language, sites.languageCookieName, {
      crossSiteFrame: livePreview && deps.preview !== undefined && isCrossSiteFrame(request.headers),
    });
    reply.setCookie(cookie.name, cookie.value, cookie.options);
  }
  const degraded =
    (outcome?.kind === 'page' && outcome.degraded) || (cached instanceof RenderedPage && cached.transient);
  const personal =
    livePreview || setsCookie || decision.privateCache || degraded || (outcome?.kind === 'page' && outcome.personal);
  reply.header('cache-control', personal ? PRIVATE : PUBLIC_CACHE);
  // What a CDN keeps, it can purge by the entries the page was built from.
  if (!personal && !payload) {
    if (cached instanceof RenderedPage) reply.headers(cached.tagHeaders);
    else if (outcome?.kind === 'page') reply.headers(pageTagHeaders(site.host, outcome.page, outcome.template));
  }
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
  // Declarative prefetching for browsers that support it (no script on the page), unless the
  // visitor saves data or is on 2g; the hints are asked for and varied on so caches keep both.
  if (speculationAllowed(request.headers)) reply.header('speculation-rules', SPECULATION_RULES_URL);
  reply.header('accept-ch', ACCEPT_CH);
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${vary}, ${SPECULATION_VARY}` : SPECULATION_VARY);
  if (cached instanceof RenderedPage) return sendRendered(request, reply, cached);
  if (outcome?.kind !== 'page') throw new Error('page render produced no outcome');
  const started = performance.now();
  const document = await streamDocument(outcome.element, onRenderError);
  deps.renderTimes?.render('streamed', (performance.now() - started) / 1000);
  return reply.send(document);
}
