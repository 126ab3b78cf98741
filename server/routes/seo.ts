import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { LRUCache } from 'lru-cache';
import { MANIFEST_PATH } from '../../common/icons.ts';
import type { Site, SitesConfig } from '../../common/site.ts';
import type { ContentService } from '../content/service.ts';
import { PageLinksMemo } from '../render/page-data.ts';
import { collectSitemapUrls } from '../seo/collect.ts';
import { siteLanguages, webManifest } from '../seo/manifest.ts';
import { robotsTxt } from '../seo/robots.ts';
import { type SitemapDocuments, sitemapDocuments } from '../seo/sitemap.ts';

export interface SeoDeps {
  sites: SitesConfig;
  content: ContentService;
  /** How long a built sitemap is kept; dropped sooner on every content change. */
  ttlMs?: number;
}

/** Search engines and browsers read these often; an hour keeps them fresh enough and off the server. */
const PUBLIC_CACHE = 'public, max-age=3600';

/**
 * The search-engine and installation surfaces of each storefront: `/robots.txt`, `/sitemap.xml` (an
 * index with `/sitemap-{n}.xml` parts past the protocol's URL limit) and `/manifest.webmanifest`.
 * Sitemaps are built once per storefront and kept until content changes.
 */
export const seoRoutes: FastifyPluginAsync<SeoDeps> = async (app, deps) => {
  const ttl = deps.ttlMs ?? 10 * 60_000;
  const built = new LRUCache<string, Promise<SitemapDocuments>>({ max: 100, ttl });
  const links = new PageLinksMemo({ maxEntries: 5000, ttlMs: ttl });
  deps.content.changes.subscribe(() => {
    built.clear();
    links.clear();
  });

  const sitemapOf = (site: Site, log: FastifyInstance['log']): Promise<SitemapDocuments> => {
    let pending = built.get(site.host);
    if (!pending) {
      pending = collectSitemapUrls(deps.content, deps.sites, site, links, log).then((urls) =>
        sitemapDocuments(site.url, urls),
      );
      built.set(site.host, pending);
      // A failed build is not kept: the next request tries again.
      pending.catch(() => built.get(site.host) === pending && built.delete(site.host));
    }
    return pending;
  };

  app.get('/robots.txt', async (request, reply) => {
    reply.type('text/plain; charset=utf-8').header('cache-control', PUBLIC_CACHE);
    return robotsTxt(request.site.url, siteLanguages(request.site));
  });

  app.get('/sitemap.xml', async (request, reply) => {
    const { index, parts } = await sitemapOf(request.site, request.log);
    reply.type('application/xml; charset=utf-8').header('cache-control', PUBLIC_CACHE);
    return index ?? parts[0];
  });

  app.get<{ Params: { part: string } }>('/sitemap-:part.xml', async (request, reply) => {
    const { index, parts } = await sitemapOf(request.site, request.log);
    const n = /^[1-9]\d{0,5}$/.test(request.params.part) ? Number(request.params.part) : 0;
    const part = index ? parts[n - 1] : undefined;
    if (!part) return reply.callNotFound();
    reply.type('application/xml; charset=utf-8').header('cache-control', PUBLIC_CACHE);
    return part;
  });

  app.get(MANIFEST_PATH, async (request, reply) => {
    reply.type('application/manifest+json; charset=utf-8').header('cache-control', PUBLIC_CACHE);
    return JSON.stringify(webManifest(request.site, deps.sites.siteName));
  });
};
