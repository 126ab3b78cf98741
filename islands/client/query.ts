import type { GraphQLFormattedError, GraphQLResult } from './http.ts';

/**
 * The query state machine: loading, setVariables, fetchMore, refetch and poll
 * while a request runs, then ready or error. The newest request wins: starting one aborts the one
 * in flight, so an old answer never overwrites a newer one. With error policy all, an answer with
 * data is ready (its errors alongside); only an answer without data, or a failed request, is error.
 * Data stays the last good data through every state, so a view never blanks while it refreshes.
 */

export type QueryState = 'loading' | 'setVariables' | 'fetchMore' | 'refetch' | 'poll' | 'ready' | 'error';

export interface QuerySnapshot<T, V> {
  state: QueryState;
  data: T | undefined;
  errors: GraphQLFormattedError[] | undefined;
  /** A failed request (network, HTTP status, no data at all). */
  error: Error | undefined;
  variables: V;
}

export type Fetcher<T, V> = (variables: V, signal: AbortSignal) => Promise<GraphQLResult<T>>;

export class Query<T, V> {
  readonly #fetcher: Fetcher<T, V>;
  readonly #listeners = new Set<() => void>();
  #snapshot: QuerySnapshot<T, V>;
  #inFlight: AbortController | undefined;
  #poll: ReturnType<typeof setInterval> | undefined;

  constructor(fetcher: Fetcher<T, V>, variables: V, initialData?: T) {
    this.#fetcher = fetcher;
    this.#snapshot = { state: 'loading', data: initialData, errors: undefined, error: undefined, variables };
  }

  /** Stable between changes, as React's useSyncExternalStore requires. */
  snapshot = (): QuerySnapshot<T, V> => this.#snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  start(): Promise<void> {
    return this.#run('loading', this.#snapshot.variables);
  }

  setVariables(variables: V): Promise<void> {
    return this.#run('setVariables', variables);
  }

  refetch(variables: V = this.#snapshot.variables): Promise<void> {
    return this.#run('refetch', variables);
  }

  /** Fetches with other variables (the next page) and merges the answer into the data. */
  fetchMore(variables: V, merge: (previous: T | undefined, more: T) => T): Promise<void> {
    return this.#run('fetchMore', variables, merge);
  }

  startPolling(intervalMs: number): void {
    this.stopPolling();
    this.#poll = setInterval(() => {
      // A poll never cuts short a request the visitor or the code asked for.
      if (!this.#inFlight) void this.#run('poll', this.#snapshot.variables);
    }, intervalMs);
  }

  stopPolling(): void {
    clearInterval(this.#poll);
    this.#poll = undefined;
  }

  /** Stops polling and drops the answer of the request in flight. */
  stop(): void {
    this.stopPolling();
    this.#inFlight?.abort();
    this.#inFlight = undefined;
  }

  async #run(state: QueryState, variables: V, merge?: (previous: T | undefined, more: T) => T): Promise<void> {
    this.#inFlight?.abort();
    const controller = new AbortController();
    this.#inFlight = controller;
    // fetchMore asks for a page; the query itself keeps its variables.
    const kept = merge ? this.#snapshot.variables : variables;
    this.#set({ state, variables: kept });
    let result: GraphQLResult<T>;
    try {
      result = await this.#fetcher(variables, controller.signal);
    } catch (error) {
      if (controller.signal.aborted) return;
      this.#inFlight = undefined;
      this.#set({ state: 'error', error: error as Error, errors: undefined });
      return;
    }
    if (controller.signal.aborted) return;
    this.#inFlight = undefined;
    if (result.data == null) {
      const message = result.errors?.[0]?.message ?? 'The answer has no data';
      this.#set({ state: 'error', error: new Error(message), errors: result.errors });
      return;
    }
    const data = merge ? merge(this.#snapshot.data, result.data) : result.data;
    this.#set({ state: 'ready', data, errors: result.errors, error: undefined });
  }

  #set(change: Partial<QuerySnapshot<T, V>>): void {
    this.#snapshot = { ...this.#snapshot, ...change };
    for (const listener of this.#listeners) listener();
  }
}
