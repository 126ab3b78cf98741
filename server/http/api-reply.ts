import { timingSafeEqual } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import type { SiteError } from '../errors.ts';

/**
 * The JSON side of the site (content API, draft API, workbench API, revalidate, webhooks) answers
 * errors in one shape, `{ error, code, ...details }` from the catalogue (server/errors.ts), never
 * cached; and checks bearer tokens through one door.
 */

/** The error shape as a response schema: a sentence, its stable code, and details (a field's `path`) beside them. */
export const ApiErrorReply = Type.Object({ error: Type.String(), code: Type.String() }, { additionalProperties: true });

/** Response schemas for a JSON route: its success shapes, and the error shape for 4xx and 5xx. */
export const replies = <T extends Record<number, unknown>>(ok: T) => ({
  ...ok,
  '4xx': ApiErrorReply,
  '5xx': ApiErrorReply,
});

export function sendApiError(reply: FastifyReply, error: SiteError) {
  return reply
    .status(error.status)
    .header('cache-control', 'no-store')
    .send({ error: error.message, code: error.code, ...error.details });
}

/** Constant-time token check; the token is never logged. No expected token: nothing matches. */
export function tokenMatches(expected: string | undefined, header: string | undefined): boolean {
  if (!expected || !header?.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice('Bearer '.length));
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * A preParsing hook refusing requests without `Authorization: Bearer {token}`: it runs before the
 * body is read, so an unauthenticated request never costs a parse, and after the onRequest rate
 * limit, so guessing tokens is limited too.
 */
export function requireBearer(token: string | undefined, refusal: () => SiteError) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: RequestPayload) => {
    if (tokenMatches(token, request.headers.authorization)) return payload;
    await sendApiError(reply.header('www-authenticate', 'Bearer'), refusal());
    return payload;
  };
}
