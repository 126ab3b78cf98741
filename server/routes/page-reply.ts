import type { FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import type { PageEncoding, RenderedPage } from '../render/html-cache.ts';

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

/** Accept-Encoding values seen, and the encoding each asks for: browsers send a handful of spellings. */
const encodings = new Map<string, PageEncoding>();
const ENCODINGS_KEPT = 64;

const SERVER_ORDER = ['br', 'gzip', 'identity'];
/** negotiator 1.x takes the tie-break order; its published types predate the option. */
type WithPreferred = { encoding(available: string[], options: { preferred: string[] }): string | undefined };

/** The encoding a cached page is sent in for this Accept-Encoding: br or gzip as the client weighs them (brotli at equal weight), else identity. */
export function preferredEncoding(acceptEncoding: string | undefined): PageEncoding {
  const header = acceptEncoding ?? '';
  let encoding = encodings.get(header);
  if (encoding === undefined) {
    // At equal weight brotli wins: browsers list gzip first, and brotli's page is the smaller one.
    const negotiator = new Negotiator({ headers: { 'accept-encoding': header } }) as WithPreferred;
    const negotiated = negotiator.encoding(SERVER_ORDER, { preferred: SERVER_ORDER });
    encoding = negotiated === 'br' || negotiated === 'gzip' ? negotiated : 'identity';
    // Bounded: a client inventing values gets them negotiated, never kept.
    if (encodings.size < ENCODINGS_KEPT) encodings.set(header, encoding);
  }
  return encoding;
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
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  const headers = rendered.headers(encoding);
  if (etagMatches(request.headers['if-none-match'], headers.etag))
    return reply.header('etag', headers.etag).status(304).send();
  reply.headers(headers);
  if (encoding === 'identity') return reply.send(rendered.body);
  return reply.send(rendered.encodedNow(encoding) ?? (await rendered.encoded(encoding)));
}
