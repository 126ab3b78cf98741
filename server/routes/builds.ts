import type { FastifyPluginAsync } from 'fastify';
import { apiErrors } from '../errors.ts';
import { sendApiError } from '../http/api-reply.ts';
import type { AssetManifest } from '../render/assets.ts';

export const SPECULATION_RULES_URL = '"/builds/speculation-rules.json"';

/**
 * Same-origin page links are prefetched when a visitor shows intent (hover, pointer down): the
 * browser's own limits apply, and Chromium skips speculative loads under Save-Data.
 */
const SPECULATION_RULES = {
  prefetch: [
    {
      where: {
        and: [{ href_matches: '/*' }, { not: { href_matches: '/cs/api/*' } }, { not: { href_matches: '/*\\?*' } }],
      },
      eagerness: 'moderate',
    },
  ],
};

/**
 * `builds/latest.json` tells a page whether a newer build serves the site, and
 * `builds/meta/{buildId}.json` is that build's route-rules manifest (for the requesting storefront).
 */
export const buildRoutes: FastifyPluginAsync<{ assets: AssetManifest }> = async (app, { assets }) => {
  app.get('/builds/speculation-rules.json', { config: { anyHost: true } }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=86400').type('application/speculationrules+json');
    return JSON.stringify(SPECULATION_RULES);
  });

  app.get('/builds/latest.json', async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return assets.build;
  });

  app.get<{ Params: { file: string } }>('/builds/meta/:file', async (request, reply) => {
    if (request.params.file !== `${assets.build.id}.json`) {
      return sendApiError(reply, apiErrors.buildUnknown());
    }
    reply.header('cache-control', 'public, max-age=31536000, immutable');
    return { id: assets.build.id, timestamp: assets.build.timestamp, routeRules: request.site.routeRules };
  });
};
