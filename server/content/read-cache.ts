import { LRUCache } from 'lru-cache';
import { jitteredTtl } from '../http/jitter.ts';
import { ContentError } from './service.ts';

/**
 * The cache of a content source that reads over HTTP (the content service, a Contentstack stack).
 * Published reads are de-duplicated and cached (LRU, jittered TTL, stale-while-revalidate, last good
 * value on upstream faults); preview reads are only de-duplicated, never kept.
 */

/** Boxed so that "not found" (null) is cacheable too; lru-cache refuses null values. */
export interface Box {
  readonly value: unknown;
}

export interface Read {
  /** Cache and de-duplication key. */
  key: string;
  /** The upstream URL, for ContentError and log lines. */
  where: string;
  load(): Promise<Box>;
}

export interface ReadCacheOptions {
  /** How long a published read is fresh. */
  cacheTtlMs: number;
  /** How long past its TTL a read is still served at once while it is refreshed in the background. */
  staleMs: number;
  maxEntries: number;
  logger?: { warn(details: object, message: string): void };
  /** The clock lifetimes are measured on (milliseconds); tests move their own. */
  now?: () => number;
}

export interface ReadCache {
  /** Cached, stale-while-revalidate, last good value on a fault. */
  published(read: Read): Promise<unknown>;
  /** Only de-duplicated: concurrent callers share one request, nothing is kept after it. */
  uncached(read: Read): Promise<unknown>;
  /** Stores a value a read brought along (an included entry), as if it had been read itself. */
  put(key: string, value: unknown): void;
  clear(): void;
}

export function createReadCache(options: ReadCacheOptions): ReadCache {
  const { cacheTtlMs, staleMs, maxEntries, logger, now = () => performance.now() } = options;
  const cache = new LRUCache<string, Box, Read>({
    max: maxEntries,
    ttl: cacheTtlMs,
    perf: { now },
    // Read the clock on every lookup: no timer per lookup to cache it, and a test's clock is obeyed.
    ttlResolution: 0,
    // An eviction while a read is in flight must not fail the visitors waiting for it.
    ignoreFetchAbort: true,
    fetchMethod: async (_key, last, { context, options }) => {
      options.ttl = jitteredTtl(cacheTtlMs);
      try {
        return await context.load();
      } catch (err) {
        // With a last good value the fault is hidden from the caller, so this is its only trace.
        if (last) logger?.warn({ err, where: context.where }, 'Content upstream failed; serving the last good value');
        throw err;
      }
    },
  });
  const inflight = new Map<string, Promise<Box>>();

  return {
    async published(read) {
      const hasLast = cache.peek(read.key, { allowStale: true }) !== undefined;
      const box = await cache.fetch(read.key, {
        context: read,
        // Within the stale window answer at once and refresh behind; beyond it, wait for the refresh.
        allowStale: cache.getRemainingTTL(read.key) > -staleMs,
        // A fault after a good read serves that read; without one there is nothing to serve but the error.
        allowStaleOnFetchRejection: hasLast,
      });
      if (!box) throw new ContentError('CONTENT_UPSTREAM', 'Content upstream read was abandoned', read.where);
      return box.value;
    },
    async uncached(read) {
      let pending = inflight.get(read.key);
      if (!pending) {
        pending = read.load().finally(() => inflight.delete(read.key));
        inflight.set(read.key, pending);
      }
      return (await pending).value;
    },
    put(key, value) {
      cache.set(key, { value: deepFreeze(value) }, { ttl: jitteredTtl(cacheTtlMs) });
    },
    clear: () => cache.clear(),
  };
}

/** Frozen because one object is shared by every caller until it leaves the cache. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
