import type { FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import type { RenderedPage } from '../render/html-cache.ts';

/**
 * How a page answer goes on the wire: its cache policy, and a cached page's validators and
 * encodings. The route decides what to answer; this module only how.
 */

/** Published pages: a CDN may keep them briefly and serve stale while it revalidates. */
export const PUBLIC_CACHE = 'public, max-age=0, s-maxage=300, stale-while-revalidate=3600';
/** Anything personal (a detected language, a cookie set, a preview, a degraded page). */
export const PRIVATE = 'private, no-store';
/** Redirects that depend on nothing but the URL. */
export const PUBLIC_REDIRECT = 'public, max-age=3600';

/** The validator of one encoding of a page: distinct per encoding, as a strong ETag must be. */
export function encodingEtag(etag: string, encoding: 'br' | 'gzip' | 'identity'): string {
  return encoding === 'identity' ? etag : `${etag.slice(0, -1)}-${encoding}"`;
}

/** True when If-None-Match names `etag` (weak comparison, lists and `*` included). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const wanted = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === wanted);
}

/** A cached page: 304 on a matching ETag, else the body in the best encoding the client accepts. */
export async function sendRendered(
  request: FastifyRequest,
  reply: FastifyReply,
  rendered: RenderedPage,
): Promise<FastifyReply> {
  // A page built while a read failed is sent as rendered (compressed like any dynamic page).
  if (rendered.transient) return reply.send(rendered.body);
  reply.header('vary', [reply.getHeader('vary'), 'Accept-Encoding'].filter(Boolean).join(', '));
  const negotiated = new Negotiator(request.raw).encoding(['br', 'gzip', 'identity']);
  const encoding = negotiated === 'br' || negotiated === 'gzip' ? negotiated : 'identity';
  const etag = encodingEtag(rendered.etag, encoding);
  reply.header('etag', etag);
  if (etagMatches(request.headers['if-none-match'], etag)) return reply.status(304).send();
  if (encoding === 'identity') return reply.send(rendered.body);
  reply.header('content-encoding', encoding);
  return reply.send(await rendered.encoded(encoding));
}
