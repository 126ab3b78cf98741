import { messages } from './decision.ts';

/**
 * Safe parsing of the request target. Hostile input (bad percent-encoding, NUL, dot segments,
 * encoded slashes, double slashes, raw non-ASCII, overlong paths) is an answer, never an exception.
 */

export const MAX_PATH_LENGTH = 2048;
export const MAX_QUERY_LENGTH = 4096;

export interface ParsedPath {
  ok: true;
  /** Decoded, without trailing slashes: '/' or '/de/cs/küche-1'. */
  path: string;
  /** Decoded segments, none empty. */
  segments: string[];
  /** The same segments as received (still percent-encoded), for redirects that keep the request's spelling. */
  rawSegments: string[];
  /** The request had trailing slashes (and was not `/`). */
  trailingSlash: boolean;
}

export interface BadTarget {
  ok: false;
  status: 400 | 414;
  message: string;
}

export function parsePath(rawPath: string): ParsedPath | BadTarget {
  if (rawPath.length > MAX_PATH_LENGTH) return bad(414);
  // RFC 3986 pchar only: browsers encode everything else, so a raw space, backslash, NUL or
  // non-ASCII byte comes from a hand-made request. `//` at the start reads as a host to browsers.
  if (!RAW_PATH.test(rawPath) || BROKEN_ESCAPE.test(rawPath) || rawPath.startsWith('//')) return bad(400);
  const trimmed = rawPath.replace(/\/+$/, '');
  const rawSegments = trimmed === '' ? [] : trimmed.slice(1).split('/');
  if (rawSegments.includes('')) return bad(400);
  const segments: string[] = [];
  for (const raw of rawSegments) {
    const segment = decodeSegment(raw);
    if (segment === null) return bad(400);
    segments.push(segment);
  }
  return {
    ok: true,
    path: `/${segments.join('/')}`,
    segments,
    rawSegments,
    trailingSlash: trimmed !== rawPath && rawPath !== '/',
  };
}

/** The query is passed on untouched into redirects, so it must already be a legal header value. */
export function checkQuery(query: string): BadTarget | null {
  if (query === '') return null;
  if (query.length > MAX_QUERY_LENGTH) return bad(414);
  if (!query.startsWith('?') || !PRINTABLE_ASCII.test(query)) return bad(400);
  return null;
}

const RAW_PATH = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;
const BROKEN_ESCAPE = /%(?![0-9A-Fa-f]{2})/;
const PRINTABLE_ASCII = /^[!-~]*$/;
// A segment that decodes to a separator or a control character would change the path's shape.
const UNSAFE_DECODED = /[/\\\p{Cc}]/u;

function decodeSegment(raw: string): string | null {
  let segment: string;
  try {
    segment = decodeURIComponent(raw);
  } catch {
    return null; // not UTF-8
  }
  if (segment === '.' || segment === '..' || UNSAFE_DECODED.test(segment)) return null;
  return segment;
}

function bad(status: 400 | 414): BadTarget {
  return { ok: false, status, message: status === 414 ? messages.uriTooLong : messages.badRequest };
}
