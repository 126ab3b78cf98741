import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { LOCALE_CODE } from '../../common/locales.ts';
import { isValidPreviewHash } from '../content/paths.ts';
import { ContentError, type ContentService } from '../content/service.ts';
import { apiErrors } from '../errors.ts';
import { apiErrorHandler } from '../http/api-errors.ts';
import { replies, requireBearer, sendApiError } from '../http/api-reply.ts';
import { limitOf } from '../http/rate-limits.ts';

/** The embedded store's content-service path segment, as a content-service URL names it. */
export const CONTENT_SERVICE_NAME = 'contentstack';

interface ContentApiDeps {
  content: ContentService;
  revalidateToken?: string;
}

const Language = Type.Object({
  language: Type.String({ pattern: LOCALE_CODE.source }),
  live_preview: Type.Optional(Type.String()),
});

const FIELD_ERRORS = { language: apiErrors.languageMalformed, uuid: apiErrors.uuidMalformed };

/** A preview hash of the wrong shape is ignored: the request reads published content. */
function previewOf(hash: string | undefined): string | undefined {
  return hash !== undefined && isValidPreviewHash(hash) ? hash : undefined;
}

/**
 * The HTTP face of the content store: the same API the upstream client calls,
 * so a second instance can serve as another's content service, and live preview can read drafts.
 */
export const contentApiRoutes: FastifyPluginAsyncTypebox<ContentApiDeps> = async (app, deps) => {
  const { content } = deps;
  app.setErrorHandler(apiErrorHandler(FIELD_ERRORS));

  const guarded = async <T>(reply: FastifyReply, preview: string | undefined, read: () => Promise<T>) => {
    try {
      const value = await read();
      reply.header('cache-control', preview ? 'private, no-store' : 'public, max-age=60');
      return value;
    } catch (error) {
      if (error instanceof ContentError) {
        reply.log.error({ err: error, where: error.where }, error.message);
        return sendApiError(
          reply,
          error.code === 'CONTENT_UPSTREAM' ? apiErrors.contentUnavailable() : apiErrors.contentBroken(),
        );
      }
      throw error;
    }
  };

  app.get(
    '/cs/api/:service/pages/:uuid',
    {
      schema: {
        params: Type.Object({ service: Type.String(), uuid: Type.String({ pattern: '^\\d{1,10}$' }) }),
        querystring: Language,
        // Entries are content: their shape is the content schemas' business, not the serializer's.
        response: replies({ 200: Type.Object({ entries: Type.Array(Type.Unknown()) }) }),
      },
    },
    async (request, reply) => {
      if (request.params.service !== CONTENT_SERVICE_NAME) return sendApiError(reply, apiErrors.serviceUnknown());
      const preview = previewOf(request.query.live_preview);
      return guarded(reply, preview, async () => {
        const page = await content.getPage(request.params.uuid, request.query.language, preview);
        return { entries: page ? [page] : [] };
      });
    },
  );

  app.get(
    '/cs/api/:service/:type/:uid',
    {
      schema: {
        params: Type.Object({ service: Type.String(), type: Type.String(), uid: Type.String() }),
        querystring: Language,
        response: replies({ 200: Type.Object({ entry: Type.Unknown() }) }),
      },
    },
    async (request, reply) => {
      const { service, type, uid } = request.params;
      if (service !== CONTENT_SERVICE_NAME) return sendApiError(reply, apiErrors.serviceUnknown());
      const preview = previewOf(request.query.live_preview);
      const result = await guarded(reply, preview, async () => {
        const entry = await content.getEntry(type, uid, request.query.language, preview);
        return entry ? { entry } : null;
      });
      return result ?? sendApiError(reply, apiErrors.entryNotFound());
    },
  );

  const AnyLanguage = Type.Object({ language: Type.Optional(Type.String()) });
  app.get('/_applicationConfiguration', { schema: { querystring: AnyLanguage } }, async (request, reply) => {
    const locale = request.query.language;
    // Only the storefront's own locales: the message names them, so it is not the schema's.
    if (locale === undefined || !request.site.locales.includes(locale)) {
      return sendApiError(reply, apiErrors.languageInvalid(request.site.locales));
    }
    // Where some of the visitor's cookies go to the source along with the host, a shared cache must
    // key on them; a source with one answer for everybody (the embedded store) varies on nothing.
    if (content.appConfigCookie) reply.header('vary', 'Cookie');
    const { cookie } = request.headers;
    return guarded(reply, undefined, () => content.getApplicationConfiguration(request.site.host, locale, cookie));
  });

  const revalidateGuard = requireBearer(deps.revalidateToken, apiErrors.revalidateTokenRequired);
  const revalidateOptions = {
    bodyLimit: 1024,
    preParsing: revalidateGuard,
    config: limitOf(app, 'revalidate'),
    schema: { response: replies({ 200: Type.Object({ revalidated: Type.Boolean() }) }) },
  };
  app.post('/cs/api/_revalidate', revalidateOptions, async (request, reply) => {
    content.changes.announce({ origin: 'revalidate' });
    request.log.info('Content cache revalidated');
    return reply.header('cache-control', 'no-store').send({ revalidated: true });
  });
};
