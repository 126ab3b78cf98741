import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The JSON side of the site (content API, draft API, workbench API, revalidate, webhooks) answers
 * errors in one shape, `{ error, ...details }`, never cached; and checks bearer tokens through one door.
 */

export function sendApiError(
  reply: FastifyReply,
  status: number,
  error: string,
  details: Record<string, unknown> = {},
) {
  return reply
    .status(status)
    .header('cache-control', 'no-store')
    .send({ error, ...details });
}

/** Constant-time token check; the token is never logged. No expected token: nothing matches. */
export function tokenMatches(expected: string | undefined, header: string | undefined): boolean {
  if (!expected || !header?.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice('Bearer '.length));
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * An onRequest hook refusing requests without `Authorization: Bearer {token}`: it runs before the
 * body is read, so an unauthenticated request never costs a parse.
 */
export function requireBearer(token: string | undefined, refusal: string) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!tokenMatches(token, request.headers.authorization))
      return sendApiError(reply.header('www-authenticate', 'Bearer'), 401, refusal);
  };
}
