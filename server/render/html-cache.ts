import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { jitteredTtl } from '../http/jitter.ts';
import { tagHeaders } from './cache-tags.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The encodings a cached page is sent in. */
export type PageEncoding = 'br' | 'gzip' | 'identity';

/** The validator of one encoding of a page: distinct per encoding, as a strong ETag must be. */
export function encodingEtag(etag: string, encoding: PageEncoding): string {
  return encoding === 'identity' ? etag : `${etag.slice(0, -1)}-${encoding}"`;
}

/** The headers one encoding of a cached page is sent with. */
export type EncodingHeaders = Readonly<{ etag: string; 'content-encoding'?: 'br' | 'gzip' }>;

/**
 * One rendered published page: the body once, its ETag, and each encoding compressed at most once.
 * Everything its answers carry that does not depend on the request (validators per encoding, CDN
 * tag headers) is worked out here, once per entry, not on every request that reads it.
 */
export class RenderedPage {
  readonly body: Buffer;
  readonly etag: string;
  /**
   * Built while a content read failed: handed to the requests waiting on this render,
   * never kept, never revalidated by ETag, never stored by a CDN.
   */
  readonly transient: boolean;
  /** The CDN cache tags of the entries the page was built from. */
  readonly tags: readonly string[];
  /** The tags as the headers CDNs read them from. */
  readonly tagHeaders: Readonly<Record<string, string>>;
  readonly #headers: Record<PageEncoding, EncodingHeaders>;
  #encoded = new Map<'br' | 'gzip', Promise<Buffer>>();
  /** Encodings compressed already: sent without waiting on a settled promise. */
  #ready = new Map<'br' | 'gzip', Buffer>();

  constructor(
    body: Buffer,
    options: { transient?: boolean; tags?: readonly string[]; encoded?: { br?: Buffer } } = {},
  ) {
    this.body = body;
    this.tags = options.tags ?? [];
    this.etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    this.transient = options.transient ?? false;
    this.tagHeaders = Object.freeze(tagHeaders(this.tags));
    this.#headers = {
      identity: Object.freeze({ etag: this.etag }),
      br: Object.freeze({ etag: encodingEtag(this.etag, 'br'), 'content-encoding': 'br' }),
      gzip: Object.freeze({ etag: encodingEtag(this.etag, 'gzip'), 'content-encoding': 'gzip' }),
    };
    // A page from the shared tier arrives brotli-compressed already.
    if (options.encoded?.br) {
      this.#encoded.set('br', Promise.resolve(options.encoded.br));
      this.#ready.set('br', options.encoded.br);
    }
  }

  /** The validator and content encoding of one encoding: the same object for every request. */
  headers(encoding: PageEncoding): EncodingHeaders {
    return this.#headers[encoding];
  }

  /** An encoding's bytes when compressed already, else undefined (then `encoded()`). */
  encodedNow(encoding: 'br' | 'gzip'): Buffer | undefined {
    return this.#ready.get(encoding);
  }

  /** Cached pages are compressed once per encoding, at a high level, instead of on every request. */
  encoded(encoding: 'br' | 'gzip'): Promise<Buffer> {
    let pending = this.#encoded.get(encoding);
    if (!pending) {
      pending =
        encoding === 'br'
          ? brotli(this.body, {
              params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: this.body.length },
            })
          : gzipAsync(this.body, { level: 9 });
      this.#encoded.set(encoding, pending);
      pending.then(
        (bytes) => this.#ready.set(encoding, bytes),
        // A failed compression stays the answer for that encoding; its callers see the error.
        () => {},
      );
    }
    return pending;
  }
}

/** What a cache fill produced: a page to keep, a redirect to keep, or nothing cacheable (errors). */
export type CacheFill = RenderedPage | { redirect: string; status: 301 | 302 | 307 | 308 };

/** How a lookup was answered; `coalesced` waited on a render another request had started. */
export type CacheLookup = 'hit' | 'miss' | 'stale' | 'coalesced';

export interface HtmlCacheOptions {
  maxEntries: number;
  /** Fresh for this long; then served stale while one request re-renders it. */
  ttlMs: number;
  /** Told how each lookup was answered (the metrics); absent, lookups are not classified. */
  onLookup?: (result: CacheLookup) => void;
  /** A second tier shared by every instance (Redis); a miss here asks it before rendering. */
  tier?: { fill(key: string, render: Fill): Promise<CacheFill | undefined> };
  /** The clock lifetimes run on, in milliseconds; tests move their own. */
  now?: () => number;
  /** Where each lifetime falls in its ±10 % spread; tests choose. */
  random?: () => number;
}

type Fill = () => Promise<CacheFill | undefined>;
type FetchStatus = NonNullable<LRUCache.Status<string, CacheFill, Fill>['fetch']>;

const LOOKUP: Record<FetchStatus, CacheLookup> = {
  hit: 'hit',
  stale: 'stale',
  inflight: 'coalesced',
  miss: 'miss',
  get: 'miss',
  refresh: 'miss',
};

/**
 * Rendered-HTML cache for published pages: keyed by storefront, locale and path only
 * (never by request headers), with request coalescing (concurrent misses render once) and
 * stale-while-revalidate. Preview, errors and the live route never reach it.
 */
export class HtmlCache {
  #cache: LRUCache<string, CacheFill, () => Promise<CacheFill | undefined>>;
  /** Transient pages of fills just finished, for the callers that waited on them. */
  #transient = new Map<string, RenderedPage>();
  #onLookup: ((result: CacheLookup) => void) | undefined;
  #tier: HtmlCacheOptions['tier'];

  constructor({ maxEntries, ttlMs, onLookup, tier, now = () => performance.now(), random }: HtmlCacheOptions) {
    this.#onLookup = onLookup;
    this.#tier = tier;
    this.#cache = new LRUCache({
      max: maxEntries,
      ttl: ttlMs,
      perf: { now },
      // Read the clock on every lookup: no timer per lookup to cache it, and a test's clock is obeyed.
      ttlResolution: 0,
      allowStale: true,
      noDeleteOnStaleGet: true,
      allowStaleOnFetchRejection: true,
      fetchMethod: (_key, _stale, { context, options }) => {
        options.ttl = jitteredTtl(ttlMs, random);
        return context();
      },
    });
  }

  /**
   * The cached fill for `key`, or the result of `fill()` (shared by concurrent callers). A
   * transient page is shared with the callers that waited on the fill but not kept: a stale copy
   * stays served, and without one the next request renders again.
   */
  async get(key: string, fill: () => Promise<CacheFill | undefined>): Promise<CacheFill | undefined> {
    const keeping = async () => {
      const filled = await (this.#tier ? this.#tier.fill(key, fill) : fill());
      if (!(filled instanceof RenderedPage && filled.transient)) return filled;
      this.#transient.set(key, filled);
      // Every waiter resumes in the microtasks that follow this fill; then the page is let go.
      setImmediate(() => this.#transient.get(key) === filled && this.#transient.delete(key));
      return undefined;
    };
    if (!this.#onLookup) return (await this.#cache.fetch(key, { context: keeping })) ?? this.#transient.get(key);
    const status: LRUCache.Status<string, CacheFill, Fill> = {};
    const pending = this.#cache.fetch(key, { context: keeping, status });
    // Read before awaiting: the status moves on as the fill completes.
    this.#onLookup(LOOKUP[status.fetch ?? 'miss']);
    return (await pending) ?? this.#transient.get(key);
  }

  clear(): void {
    this.#cache.clear();
  }

  get size(): number {
    return this.#cache.size;
  }
}

/** Collects a rendered stream into one buffer (a cached page is sent whole, with an ETag). */
export async function collect(stream: Readable | string | Buffer): Promise<Buffer> {
  if (typeof stream === 'string') return Buffer.from(stream, 'utf8');
  if (Buffer.isBuffer(stream)) return stream;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

export function cacheKey(host: string, locale: string, path: string): string {
  return `${host}\u0000${locale}\u0000${path}`;
}
