import { useEffect, useState, useSyncExternalStore } from 'react';
import type { DataClient } from './client.ts';
import { Query, type QuerySnapshot } from './query.ts';

export interface QueryHandle<T, V> extends QuerySnapshot<T, V> {
  setVariables(variables: V): void;
  refetch(): void;
  fetchMore(variables: V, merge: (previous: T | undefined, more: T) => T): void;
  startPolling(intervalMs: number): void;
  stopPolling(): void;
}

/**
 * A query for an island (the query states, through React). The server render and the first
 * client render both show `initialData` in state loading, so hydration matches; the request starts
 * in an effect. `client` is a getter because there is no client on the server.
 */
export function useQuery<T, V extends object>(
  client: () => DataClient,
  query: string,
  variables: V,
  options: { initialData?: T; pollMs?: number } = {},
): QueryHandle<T, V> {
  // Created once per island: the observer, the client getter it was made with, and stable actions.
  const [{ observer, getClient, actions }] = useState(() => {
    const q = new Query<T, V>(
      (vars, signal) => client().query<T>({ query, variables: vars }, { signal }),
      variables,
      options.initialData,
    );
    return {
      observer: q,
      getClient: client,
      actions: {
        setVariables: (vars: V) => void q.setVariables(vars),
        refetch: () => void q.refetch(),
        fetchMore: (vars: V, merge: (previous: T | undefined, more: T) => T) => void q.fetchMore(vars, merge),
        startPolling: (ms: number) => q.startPolling(ms),
        stopPolling: () => q.stopPolling(),
      },
    };
  });
  const snapshot = useSyncExternalStore(observer.subscribe, observer.snapshot, observer.snapshot);
  const { pollMs } = options;
  useEffect(() => {
    const untrack = getClient().track(observer as unknown as Query<unknown, never>);
    void observer.start();
    if (pollMs) observer.startPolling(pollMs);
    return () => {
      untrack();
      observer.stop();
    };
  }, [observer, getClient, pollMs]);
  return { ...snapshot, ...actions };
}
