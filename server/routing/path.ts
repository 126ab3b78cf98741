import { messages } from './decision.ts';

/**
 * Safe parsing of the request target. Hostile input (bad percent-encoding, NUL, dot segments,
 * encoded slashes, double slashes, raw non-ASCII, overlong paths) is an answer, never an exception:
 * 400 only for a path that cannot be decoded (broken percent-encoding, not UTF-8, not a path at
 * all), 414 for an overlong one, and 404 for one that decodes but cannot name a page.
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
}

export interface BadTarget {
  ok: false;
  status: 400 | 404 | 414;
  message: string;
}

export function parsePath(rawPath: string): ParsedPath | BadTarget {
  if (rawPath.length > MAX_PATH_LENGTH) return bad(414);
  if (!rawPath.startsWith('/') || BROKEN_ESCAPE.test(rawPath)) return bad(400);
  const trimmed = rawPath.replace(/\/+$/, '');
  const rawSegments = trimmed === '' ? [] : trimmed.slice(1).split('/');
  const segments: string[] = [];
  for (const raw of rawSegments) {
    const segment = decodeSegment(raw);
    if (segment === undefined) return bad(400);
    segments.push(segment);
  }
  // RFC 3986 pchar only: browsers encode everything else, so a raw space, backslash, NUL or
  // non-ASCII byte comes from a hand-made request. `//` reads as a host to browsers. Such a path
  // decodes, so it is a page that does not exist, not a bad request.
  if (
    !RAW_PATH.test(rawPath) ||
    rawPath.startsWith('//') ||
    rawSegments.includes('') ||
    segments.some((s) => s === '')
  ) {
    return { ok: false, status: 404, message: messages.noRoute(rawPath) };
  }
  return {
    ok: true,
    path: `/${segments.join('/')}`,
    segments,
    rawSegments,
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

/** The decoded segment; '' when it decodes to something no page path holds; undefined when it does not decode. */
function decodeSegment(raw: string): string | undefined {
  let segment: string;
  try {
    segment = decodeURIComponent(raw);
  } catch {
    return undefined; // not UTF-8
  }
  if (segment === '.' || segment === '..' || UNSAFE_DECODED.test(segment)) return '';
  return segment;
}

function bad(status: 400 | 414): BadTarget {
  return { ok: false, status, message: status === 414 ? messages.uriTooLong : messages.badRequest };
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * The one spelling of a path's percent-encoding (RFC 3986 section 6.2.2): escapes of unreserved
 * characters decoded, every other escape in upper-case hex. Two spellings of one page would be two
 * cache entries and two indexed URLs; the route redirects every other spelling to this one. A
 * segment that would decode to `.` or `..` is left as it came: it must not become a dot segment.
 */
export function normalizeEscapes(rawPath: string): string {
  // Nearly every request has no escape at all: nothing to respell, and no regex per segment.
  if (!rawPath.includes('%')) return rawPath;
  return rawPath
    .split('/')
    .map((segment) => {
      const upper = segment.replace(/%[0-9a-f]{2}/gi, (escaped) => escaped.toUpperCase());
      const decoded = upper.replace(/%([0-9A-F]{2})/g, (escaped, hex: string) => {
        const char = String.fromCharCode(Number.parseInt(hex, 16));
        return UNRESERVED.test(char) ? char : escaped;
      });
      return decoded === '.' || decoded === '..' ? segment : decoded;
    })
    .join('/');
}
