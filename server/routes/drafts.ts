import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { type DraftStore, draftKey, isDraftAddress } from '../content/draft-store.ts';
import { entryProblem } from '../content/entry-checks.ts';
import { type ContentKey, isValidPreviewHash } from '../content/paths.ts';
import { apiErrors, SiteError } from '../errors.ts';
import { apiErrorHandler } from '../http/api-errors.ts';
import { requireBearer, sendApiError } from '../http/api-reply.ts';
import { limitOf } from '../http/rate-limits.ts';
import { CONTENT_SERVICE_NAME } from './content-api.ts';

/**
 * The draft API: an editor, or a test, writes the draft of one entry under a preview
 * hash, in the store's own layout (`{CONTENT_DIR}/_drafts/{hash}/{locale}/{pages|type}/{id}.json`),
 * and the store overlays it on published content for requests carrying that hash.
 *
 *   PUT    /cs/api/contentstack/_drafts/{hash}/{locale}/{pages|content_type_uid}/{id}   JSON entry
 *   DELETE /cs/api/contentstack/_drafts/{hash}/{locale}/{pages|content_type_uid}/{id}
 *
 * A bearer token (DRAFT_API_TOKEN, compared in constant time) is checked before the body is read.
 * Drafts pass the schemas published content passes, and must name the entry of their path.
 */

interface DraftDeps {
  drafts: DraftStore;
  /** Without a token every request is refused. */
  token: string | undefined;
}

/** Where a draft goes; whether each part has its shape is `draftOf`'s question, so its message can say which. */
const DraftParams = Type.Object({
  service: Type.String(),
  hash: Type.String(),
  locale: Type.String(),
  type: Type.String(),
  id: Type.String(),
});
type DraftParams = Static<typeof DraftParams>;

/**
 * A preview hash is all that separates one editor's drafts from another's: a draft is written only
 * under a hash long enough to hold 48 random bits (12 hex digits, as the workbench makes them).
 */
export const MIN_DRAFT_HASH_LENGTH = 12;

/** A draft is one entry; the largest published entry is under 10 KB. */
export const DRAFT_BODY_LIMIT = 256 * 1024;

export const draftRoutes: FastifyPluginAsyncTypebox<DraftDeps> = async (app, deps) => {
  app.setErrorHandler(apiErrorHandler({}, { 413: () => apiErrors.draftTooLarge(DRAFT_BODY_LIMIT / 1024) }));
  const url = '/cs/api/:service/_drafts/:hash/:locale/:type/:id';

  /** The draft a request names, or a reply explaining why it names none. */
  function draftOf(params: DraftParams): { hash: string; key: ContentKey } | SiteError {
    if (params.service !== CONTENT_SERVICE_NAME) return apiErrors.serviceUnknown();
    if (!isValidPreviewHash(params.hash) || params.hash.length < MIN_DRAFT_HASH_LENGTH)
      return apiErrors.hashInvalid(MIN_DRAFT_HASH_LENGTH);
    const key = draftKey(params.type, params.id, params.locale);
    if (!isDraftAddress(params.hash, key)) return apiErrors.addressInvalid('locale, content type or id');
    return { hash: params.hash, key };
  }

  /** The draft store failed (its shared tier unreachable): the editor may retry, nothing was changed. */
  const unavailable = (reply: FastifyReply, error: Error) => {
    reply.log.error({ err: error }, 'Draft store failed');
    return sendApiError(reply.header('retry-after', '5'), apiErrors.draftsUnavailable());
  };

  const options = {
    schema: { params: DraftParams },
    bodyLimit: DRAFT_BODY_LIMIT,
    config: { anyHost: true, ...limitOf(app, 'drafts') },
    // Before the body is read: an unauthenticated request never costs a parse.
    preParsing: requireBearer(deps.token, apiErrors.tokenRequired),
  };

  // The body is an entry of the content type the path names: `entryProblem` checks it by that type.
  app.put(url, options, async (request, reply) => {
    const target = draftOf(request.params);
    if (target instanceof SiteError) return sendApiError(reply, target);
    const { type, id, locale } = request.params;
    const problem = entryProblem(type, id, locale, request.body);
    if (problem) return sendApiError(reply, apiErrors.contentInvalid(problem));
    const text = `${JSON.stringify(request.body, null, 2)}\n`;
    const existed = await deps.drafts.write(target.hash, target.key, text).catch((error: unknown) => error);
    if (existed instanceof Error) return unavailable(reply, existed);
    request.log.info({ draft: deps.drafts.locate(target.hash, target.key) }, 'Draft saved');
    return reply
      .status(existed ? 204 : 201)
      .header('cache-control', 'no-store')
      .send();
  });

  app.delete(url, options, async (request, reply) => {
    const target = draftOf(request.params);
    if (target instanceof SiteError) return sendApiError(reply, target);
    const removed = await deps.drafts.remove(target.hash, target.key).catch((error: unknown) => error);
    if (removed instanceof Error) return unavailable(reply, removed);
    if (!removed) return sendApiError(reply, apiErrors.draftNotFound());
    request.log.info({ draft: deps.drafts.locate(target.hash, target.key) }, 'Draft deleted');
    return reply.status(204).header('cache-control', 'no-store').send();
  });
};
