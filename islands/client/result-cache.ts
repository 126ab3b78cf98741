import { LRUCache } from 'lru-cache';
import { RESULT_CACHE_MAX } from './constants.ts';
import type { GraphQLResult } from './http.ts';

/**
 * The bounded result cache (50,000 entries), for callers that opt in by handing
 * one to the client. The default policy is no-cache, so an island that never asks for it never
 * loads it: live prices must not come from a cache.
 */
export interface ResultCache {
  get(key: string): GraphQLResult<unknown> | undefined;
  set(key: string, value: GraphQLResult<unknown>): unknown;
  clear(): void;
}

export function createResultCache(max = RESULT_CACHE_MAX): ResultCache {
  return new LRUCache<string, GraphQLResult<unknown>>({ max });
}
