import type { Sink } from 'graphql-ws/client';
import { DEFAULT_ENDPOINT } from './constants.ts';
import { type GraphQLRequest, type GraphQLResult, postGraphQL } from './http.ts';
import type { Query } from './query.ts';
import { createRealtime, type Realtime, type RealtimeOptions } from './realtime.ts';
import type { ResultCache } from './result-cache.ts';
import { authorizationHeader, cookieTokenStore, type TokenStore } from './token.ts';

/**
 * The islands' data client: queries by HTTP POST, subscriptions over the real-time channel, one
 * token for both, and login and logout: store or clear the token, restart
 * the channel with 4205, and reset the store (forget cached results, refetch live queries) unless
 * the caller skips the reset.
 */

export interface DataClientOptions {
  /** The GraphQL endpoint; relative URLs resolve against the page. */
  endpoint?: string;
  tokens?: TokenStore;
  /** Opt-in result cache (result-cache.ts); without one every query goes to the network. */
  cache?: ResultCache;
  fetch?: typeof fetch;
  /** Channel settings; the defaults are the spec's. */
  realtime?: Omit<RealtimeOptions, 'url' | 'token'>;
}

export type FetchPolicy = 'no-cache' | 'cache-first';

export interface DataClient {
  query<T>(
    request: GraphQLRequest<object>,
    options?: { signal?: AbortSignal; fetchPolicy?: FetchPolicy },
  ): Promise<GraphQLResult<T>>;
  subscribe<T>(request: GraphQLRequest<object>, sink: Sink<GraphQLResult<T>>): () => void;
  /** Queries the store refetches on reset; returns the untrack function. */
  track(query: Query<unknown, never>): () => void;
  login(token: string, options?: { skipReset?: boolean }): void;
  logout(options?: { skipReset?: boolean }): void;
  resetStore(): void;
  /** The page is going into the back/forward cache: close the socket, keep the subscriptions. */
  suspend(): void;
  /** The page is back: subscribe again and refetch, since nothing was pushed while it was away. */
  resume(): void;
  readonly realtime: Realtime;
  dispose(): Promise<void>;
}

export function createDataClient(options: DataClientOptions = {}): DataClient {
  const endpoint = new URL(options.endpoint ?? DEFAULT_ENDPOINT, globalThis.location?.href).href;
  const tokens = options.tokens ?? cookieTokenStore();
  const tracked = new Set<Query<unknown, never>>();
  const realtime = createRealtime({
    ...options.realtime,
    url: endpoint.replace(/^http/, 'ws'),
    token: () => tokens.get(),
  });

  async function query<T>(
    request: GraphQLRequest<object>,
    { signal, fetchPolicy = 'no-cache' }: { signal?: AbortSignal; fetchPolicy?: FetchPolicy } = {},
  ): Promise<GraphQLResult<T>> {
    const cache = fetchPolicy === 'cache-first' ? options.cache : undefined;
    const key = cache && JSON.stringify([request.query, request.variables ?? null, request.operationName ?? null]);
    const cached = key ? cache?.get(key) : undefined;
    if (cached) return cached as GraphQLResult<T>;
    const result = await postGraphQL<T>(endpoint, request, {
      headers: authorizationHeader(tokens.get()),
      ...(signal ? { signal } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    // Only complete answers are worth keeping; a partial one would hide the error next time.
    if (key && !result.errors?.length) cache?.set(key, result);
    return result;
  }

  function resetStore() {
    options.cache?.clear();
    for (const q of tracked) void q.refetch();
  }

  function afterTokenChange(skipReset = false) {
    realtime.restart();
    if (!skipReset) resetStore();
  }

  return {
    query,
    subscribe: (request, sink) => realtime.subscribe(request, sink),
    track(q) {
      tracked.add(q);
      return () => tracked.delete(q);
    },
    login(token, { skipReset } = {}) {
      tokens.set(token);
      afterTokenChange(skipReset);
    },
    logout({ skipReset } = {}) {
      tokens.clear();
      afterTokenChange(skipReset);
    },
    resetStore,
    suspend: () => realtime.suspend(),
    resume() {
      realtime.resume();
      resetStore();
    },
    realtime,
    dispose: () => realtime.dispose(),
  };
}
