import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isValidLocaleCode } from '../../common/locales.ts';
import { isValidPreviewHash } from '../content/paths.ts';
import { ContentError, type ContentService } from '../content/service.ts';

/** Contract section 8: the embedded store's content-service path segment. */
export const CONTENT_SERVICE_NAME = 'contentstack';

interface ContentApiDeps {
  content: ContentService;
  revalidateToken?: string;
}

interface LanguageQuery {
  language?: string;
  live_preview?: string;
}

function languageOf(request: FastifyRequest<{ Querystring: LanguageQuery }>): string | null {
  const { language } = request.query;
  return typeof language === 'string' && isValidLocaleCode(language) ? language : null;
}

function previewOf(request: FastifyRequest<{ Querystring: LanguageQuery }>): string | undefined {
  const hash = request.query.live_preview;
  return typeof hash === 'string' && isValidPreviewHash(hash) ? hash : undefined;
}

/** Constant-time token check (security catalogue, case 17); the token is never logged. */
export function tokenMatches(expected: string | undefined, header: string | undefined): boolean {
  if (!expected || !header?.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice('Bearer '.length));
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

function apiError(reply: FastifyReply, status: number, message: string) {
  return reply.status(status).header('cache-control', 'no-store').send({ error: message });
}

/**
 * The HTTP face of the content store (contract section 4): the same API the upstream client calls,
 * so a second instance can serve as another's content service, and live preview can read drafts.
 */
export function contentApiRoutes(app: FastifyInstance, deps: ContentApiDeps): void {
  const { content } = deps;

  const guarded = async <T>(reply: FastifyReply, preview: string | undefined, read: () => Promise<T>) => {
    try {
      const value = await read();
      reply.header('cache-control', preview ? 'private, no-store' : 'public, max-age=60');
      return value;
    } catch (error) {
      if (error instanceof ContentError) {
        reply.log.error({ err: error, where: error.where }, error.message);
        return apiError(reply, error.code === 'CONTENT_UPSTREAM' ? 503 : 500, 'Content unavailable');
      }
      throw error;
    }
  };

  app.get<{ Params: { service: string; uuid: string }; Querystring: LanguageQuery }>(
    '/cs/api/:service/pages/:uuid',
    async (request, reply) => {
      const locale = languageOf(request);
      if (request.params.service !== CONTENT_SERVICE_NAME) return apiError(reply, 404, 'Unknown content service');
      if (!locale) return apiError(reply, 400, 'language must be a locale code like de-CH');
      if (!/^\d{1,10}$/.test(request.params.uuid)) return apiError(reply, 400, 'uuid must be 1 to 10 digits');
      const preview = previewOf(request);
      return guarded(reply, preview, async () => {
        const page = await content.getPage(request.params.uuid, locale, preview);
        return { entries: page ? [page] : [] };
      });
    },
  );

  app.get<{ Params: { service: string; type: string; uid: string }; Querystring: LanguageQuery }>(
    '/cs/api/:service/:type/:uid',
    async (request, reply) => {
      const locale = languageOf(request);
      if (request.params.service !== CONTENT_SERVICE_NAME) return apiError(reply, 404, 'Unknown content service');
      if (!locale) return apiError(reply, 400, 'language must be a locale code like de-CH');
      const preview = previewOf(request);
      const result = await guarded(reply, preview, async () => {
        const entry = await content.getEntry(request.params.type, request.params.uid, locale, preview);
        return entry ? { entry } : null;
      });
      return result ?? apiError(reply, 404, 'Entry not found');
    },
  );

  app.get<{ Querystring: LanguageQuery }>('/_applicationConfiguration', async (request, reply) => {
    const locale = languageOf(request);
    if (!locale || !request.site.locales.includes(locale)) {
      return apiError(reply, 400, `language must be one of ${request.site.locales.join(', ')}`);
    }
    // The visitor's cookie goes to the source along with the host, so a shared cache must key on it.
    reply.header('vary', 'Cookie');
    const { cookie } = request.headers;
    return guarded(reply, undefined, () => content.getApplicationConfiguration(request.site.host, locale, cookie));
  });

  app.post('/cs/api/_revalidate', { bodyLimit: 1024 }, async (request, reply) => {
    if (!tokenMatches(deps.revalidateToken, request.headers.authorization)) {
      return apiError(reply, 401, 'A valid revalidate token is required');
    }
    content.changes.announce({ origin: 'revalidate' });
    request.log.info('Content cache revalidated');
    return reply.header('cache-control', 'no-store').send({ revalidated: true });
  });
}
