import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ChangedEntry } from '../content/changes.ts';
import { siteLocale } from '../content/contentstack-api.ts';
import type { ContentService } from '../content/service.ts';
import { tokenMatches } from './content-api.ts';

/**
 * Contentstack's webhooks: an entry published, unpublished or deleted in the stack clears what was
 * built from it, through the content source's change hub. The stack sends the secret as a custom
 * `Authorization: Bearer …` header; without the right one nothing changes.
 */

export interface WebhookDeps {
  content: ContentService;
  /** Unset: the route answers 401 to everything. */
  secret: string | undefined;
}

/** The entry events that change what visitors see; create and update touch drafts only. */
const ENTRY_EVENTS = new Set(['publish', 'unpublish', 'delete']);
const UID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const CONTENT_TYPE = /^[a-z][a-z0-9_]{0,63}$/;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The entry a webhook body names, or a reason it names none (for the 400 answer). */
export function changedEntry(body: unknown): ChangedEntry | string {
  if (!isObject(body)) return 'the body must be a JSON object';
  if (body.module !== 'entry') return 'only entry events are handled';
  if (typeof body.event !== 'string' || !ENTRY_EVENTS.has(body.event))
    return 'event must be publish, unpublish or delete';
  const data = isObject(body.data) ? body.data : {};
  const entry = isObject(data.entry) ? data.entry : {};
  const contentType = isObject(data.content_type) ? data.content_type : {};
  if (typeof entry.uid !== 'string' || !UID.test(entry.uid)) return 'data.entry.uid is missing or malformed';
  if (typeof contentType.uid !== 'string' || !CONTENT_TYPE.test(contentType.uid))
    return 'data.content_type.uid is missing or malformed';
  const code = typeof entry.locale === 'string' ? entry.locale : typeof data.locale === 'string' ? data.locale : '';
  const locale = siteLocale(code);
  return { type: contentType.uid, uid: entry.uid, ...(locale ? { locale } : {}) };
}

const answer = (reply: FastifyReply, status: number, body: object) =>
  reply.status(status).header('cache-control', 'no-store').send(body);

export function webhookRoutes(app: FastifyInstance, deps: WebhookDeps): void {
  // Any Host: the stack calls whichever address it was given, not necessarily a storefront's.
  app.post(
    '/cs/api/_webhook/contentstack',
    { bodyLimit: 1024 * 1024, config: { anyHost: true } },
    async (request, reply) => {
      if (!tokenMatches(deps.secret, request.headers.authorization)) {
        return answer(reply, 401, { error: 'A valid webhook secret is required' });
      }
      const entry = changedEntry(request.body);
      if (typeof entry === 'string') return answer(reply, 400, { error: entry });
      deps.content.changes.announce({ origin: 'webhook', entries: [entry] });
      request.log.info({ entry }, 'Content changed in Contentstack; caches cleared');
      return answer(reply, 200, { invalidated: [entry] });
    },
  );
}
