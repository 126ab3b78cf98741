import type { Redis } from 'ioredis';
import type { ContentChanges } from '../content/changes.ts';
import type { Catalog } from '../data/catalog.ts';
import { relayCatalog } from './catalog-relay.ts';
import { relayChanges } from './change-relay.ts';
import { PageTier } from './page-tier.ts';
import type { SharedRedis, SharedState } from './redis.ts';

export interface SharedTier {
  /** The command connection, for what keeps its own state in Redis (rate-limit counters). */
  redis: Redis;
  /** Rendered pages shared by every instance (the HTML cache's second tier). */
  pages: PageTier;
  /** The catalog with its changes relayed to and from every instance. */
  shareCatalog(catalog: Catalog): Catalog;
  /** For /readyz: Redis is a convenience, so its state (ok, slow, unreachable) is detail, never a reason to refuse traffic. */
  state(): SharedState;
  close(): Promise<void>;
}

/**
 * `REDIS_URL`: what instances share through Redis. Without it every instance keeps all of this in
 * its own memory; with it unreachable, each falls back to that until Redis is back.
 */
export function startSharedTier(options: {
  redis: SharedRedis;
  changes: ContentChanges;
  pageTtlMs: number;
}): SharedTier {
  const { redis } = options;
  const pages = new PageTier(redis, { ttlMs: options.pageTtlMs });
  relayChanges(options.changes, redis, pages);
  return {
    redis: redis.commands,
    pages,
    shareCatalog: (catalog) => relayCatalog(catalog, redis),
    state: () => redis.state,
    close: () => redis.close(),
  };
}
