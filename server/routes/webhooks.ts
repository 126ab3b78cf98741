import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from '@sinclair/typebox';
import type { ChangedEntry } from '../content/changes.ts';
import { siteLocale } from '../content/contentstack-api.ts';
import type { ContentService } from '../content/service.ts';
import { apiErrors } from '../errors.ts';
import { apiErrorHandler } from '../http/api-errors.ts';
import { requireBearer } from '../http/api-reply.ts';
import { limitOf } from '../http/rate-limits.ts';

/**
 * Contentstack's webhooks: an entry published, unpublished or deleted in the stack clears what was
 * built from it, through the content source's change hub. The stack sends the secret as a custom
 * `Authorization: Bearer …` header; without the right one nothing is read and nothing changes.
 */

export interface WebhookDeps {
  content: ContentService;
  /** Unset: every call is refused. */
  secret: string | undefined;
}

/**
 * The part of the stack's webhook body that is read. Only the entry events that change what
 * visitors see: create and update touch drafts, other modules (assets, content types) no entry.
 */
const WebhookBody = Type.Object({
  event: Type.Union([Type.Literal('publish'), Type.Literal('unpublish'), Type.Literal('delete')]),
  module: Type.Literal('entry'),
  data: Type.Object({
    entry: Type.Object({
      uid: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$' }),
      locale: Type.Optional(Type.String()),
    }),
    content_type: Type.Object({ uid: Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$' }) }),
    locale: Type.Optional(Type.String()),
  }),
});

const FIELD_ERRORS = {
  event: apiErrors.webhookEventInvalid,
  module: apiErrors.webhookModuleIgnored,
  data: apiErrors.webhookDataInvalid,
};

/** The entry a webhook names, its stack locale (`de-ch`) in the site's spelling (`de-CH`). */
export function changedEntry(body: Static<typeof WebhookBody>): ChangedEntry {
  const { entry, content_type: contentType, locale: eventLocale } = body.data;
  const locale = siteLocale(entry.locale ?? eventLocale ?? '');
  return { type: contentType.uid, uid: entry.uid, ...(locale ? { locale } : {}) };
}

export const webhookRoutes: FastifyPluginAsyncTypebox<WebhookDeps> = async (app, deps) => {
  app.setErrorHandler(apiErrorHandler(FIELD_ERRORS));
  app.post(
    '/cs/api/_webhook/contentstack',
    {
      // Any Host: the stack calls whichever address it was given, not necessarily a storefront's.
      config: { anyHost: true, ...limitOf(app, 'webhook') },
      bodyLimit: 1024 * 1024,
      preParsing: requireBearer(deps.secret, apiErrors.webhookSecretRequired),
      schema: { body: WebhookBody },
    },
    async (request, reply) => {
      const entry = changedEntry(request.body);
      deps.content.changes.announce({ origin: 'webhook', entries: [entry] });
      request.log.info({ entry }, 'Content changed in Contentstack; caches cleared');
      return reply.header('cache-control', 'no-store').send({ invalidated: [entry] });
    },
  );
};
