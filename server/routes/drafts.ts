import { rm, stat } from 'node:fs/promises';
import { relative } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { entryProblem } from '../content/entry-checks.ts';
import { type ContentKey, contentFile, draftRoot } from '../content/paths.ts';
import { writeAtomically } from '../content/write-atomically.ts';
import { apiErrorHandler } from '../http/api-errors.ts';
import { requireBearer, sendApiError } from '../http/api-reply.ts';
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
  contentDir: string;
  /** Without a token every request is refused. */
  token: string | undefined;
}

interface DraftParams {
  service: string;
  hash: string;
  locale: string;
  type: string;
  id: string;
}

/** A draft is one entry; the largest published entry is under 10 KB. */
export const DRAFT_BODY_LIMIT = 256 * 1024;

export const draftRoutes: FastifyPluginAsync<DraftDeps> = async (app, deps) => {
  app.setErrorHandler(apiErrorHandler({}, { 413: `A draft is at most ${DRAFT_BODY_LIMIT / 1024} KiB` }));
  const url = '/cs/api/:service/_drafts/:hash/:locale/:type/:id';

  /** The draft file of a request, or a reply explaining why there is none. */
  function draftFile(params: DraftParams): { file: string } | { status: number; error: string } {
    if (params.service !== CONTENT_SERVICE_NAME) return { status: 404, error: 'Unknown content service' };
    const root = draftRoot(deps.contentDir, params.hash);
    if (!root) return { status: 400, error: 'hash must be 1 to 128 letters, digits, - or _' };
    const key: ContentKey =
      params.type === 'pages'
        ? { kind: 'page', locale: params.locale, uuid: params.id }
        : { kind: 'entry', locale: params.locale, contentType: params.type, uid: params.id };
    const file = contentFile(root, key);
    return file ? { file } : { status: 400, error: 'locale, content type or id is not of its shape' };
  }

  const options = {
    bodyLimit: DRAFT_BODY_LIMIT,
    config: { anyHost: true },
    // Before the body is read: an unauthenticated request never costs a parse.
    onRequest: requireBearer(deps.token, 'A valid draft API token is required'),
  };

  app.put<{ Params: DraftParams; Body: unknown }>(url, options, async (request, reply) => {
    const target = draftFile(request.params);
    if ('error' in target) return sendApiError(reply, target.status, target.error);
    const { type, id, locale } = request.params;
    const problem = entryProblem(type, id, locale, request.body);
    if (problem) {
      const path = problem.slice(0, problem.indexOf(':'));
      return sendApiError(reply, 400, `Invalid content: ${problem}`, { path });
    }
    const existed = await stat(target.file).then(
      () => true,
      () => false,
    );
    // A preview request never reads half a file.
    await writeAtomically(target.file, `${JSON.stringify(request.body, null, 2)}\n`);
    request.log.info({ draft: relative(deps.contentDir, target.file) }, 'Draft saved');
    return reply
      .status(existed ? 204 : 201)
      .header('cache-control', 'no-store')
      .send();
  });

  app.delete<{ Params: DraftParams }>(url, options, async (request, reply) => {
    const target = draftFile(request.params);
    if ('error' in target) return sendApiError(reply, target.status, target.error);
    const removed = await rm(target.file).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return false;
        throw error;
      },
    );
    if (!removed) return sendApiError(reply, 404, 'No such draft');
    request.log.info({ draft: relative(deps.contentDir, target.file) }, 'Draft deleted');
    return reply.status(204).header('cache-control', 'no-store').send();
  });
};
