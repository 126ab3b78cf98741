import { type Client, createClient, type Sink } from 'graphql-ws/client';
import {
  ACK_TIMEOUT_MS,
  KEEP_ALIVE_MS,
  RESTART_CLOSE_CODE,
  RETRY_ATTEMPTS,
  RETRY_BASE_MS,
  RETRY_JITTER_MAX_MS,
  RETRY_JITTER_MIN_MS,
} from './constants.ts';
import type { GraphQLRequest } from './http.ts';
import { authorizationHeader } from './token.ts';

/**
 * The real-time channel on graphql-ws, which speaks the
 * graphql-transport-ws protocol, validates every server message (string type; non-empty string id
 * for next, error and complete; object payload; an invalid one closes the socket with 4004) and
 * classifies close codes: 4500, 4005, 4400, 4004, 4401, 4406, 4409 and 4429 end the connection for
 * good, the rest (4403, 4408, 4504, a dropped socket…) are retried with back-off. This module adds
 * the spec's settings, the 4205 restart, the close log, the error hook and a connection status.
 */

/** `lost` between an unplanned close and the next acknowledged connection. */
export type ConnectionStatus = 'idle' | 'connected' | 'lost';

export interface RealtimeOptions {
  url: string;
  /** Read at every (re)connect, so a restart after login or logout carries the new token. */
  token: () => string | null;
  retryAttempts?: number;
  retryBaseMs?: number;
  jitterMinMs?: number;
  jitterMaxMs?: number;
  keepAliveMs?: number;
  ackTimeoutMs?: number;
  /** Errors of the channel and of subscriptions ("errors go to an error hook"). */
  onError?: (error: unknown) => void;
  /** Where "Socket closed with event …" goes. */
  log?: (message: string) => void;
  /** A WebSocket class for runtimes without a global one (Node tests). */
  webSocketImpl?: unknown;
}

export interface Realtime {
  subscribe<T>(request: GraphQLRequest<object>, sink: Sink<{ data?: T | null; errors?: unknown }>): () => void;
  /** Closes the socket with 4205; graphql-ws reconnects at once and resubscribes everything. */
  restart(): void;
  status(): ConnectionStatus;
  onStatus(listener: (status: ConnectionStatus) => void): () => void;
  /**
   * Ends every subscription on the server and closes the socket, keeping them to start again on
   * resume (a page going into the back/forward cache must hold no open socket).
   */
  suspend(): void;
  resume(): void;
  dispose(): Promise<void>;
}

export function createRealtime(options: RealtimeOptions): Realtime {
  const onError = options.onError ?? ((error: unknown) => console.error(error));
  const log = options.log ?? ((message: string) => console.warn(message));
  const base = options.retryBaseMs ?? RETRY_BASE_MS;
  const jitterMin = options.jitterMinMs ?? RETRY_JITTER_MIN_MS;
  const jitterMax = options.jitterMaxMs ?? RETRY_JITTER_MAX_MS;
  const listeners = new Set<(status: ConnectionStatus) => void>();
  let status: ConnectionStatus = 'idle';
  let socket: WebSocket | undefined;
  let restarting = false;
  // graphql-ws hands some errors to both its error event and the subscription: report each once.
  const reported = new WeakSet<object>();
  const report = (error: unknown) => {
    if (typeof error === 'object' && error !== null) {
      if (reported.has(error)) return;
      reported.add(error);
    }
    onError(error);
  };

  const setStatus = (next: ConnectionStatus) => {
    if (next === status) return;
    status = next;
    for (const listener of listeners) listener(next);
  };
  const client: Client = createClient({
    url: options.url,
    connectionParams: () => authorizationHeader(options.token()),
    retryAttempts: options.retryAttempts ?? RETRY_ATTEMPTS,
    retryWait: async (retries) => {
      // A restart is not a failure: reconnect at once with the new token.
      if (restarting) {
        restarting = false;
        return;
      }
      const jitter = jitterMin + Math.random() * (jitterMax - jitterMin);
      await new Promise((resolve) => setTimeout(resolve, base * 2 ** retries + jitter));
    },
    keepAlive: options.keepAliveMs ?? KEEP_ALIVE_MS,
    connectionAckWaitTimeout: options.ackTimeoutMs ?? ACK_TIMEOUT_MS,
    ...(options.webSocketImpl ? { webSocketImpl: options.webSocketImpl } : {}),
    on: {
      opened: (opened) => {
        socket = opened as WebSocket;
      },
      connected: () => setStatus('connected'),
      closed: (event) => {
        socket = undefined;
        const { code, reason } = event as CloseEvent;
        log(`Socket closed with event ${code}${reason ? ` ${reason}` : ''}`);
        // Planned closes (a restart, the last subscription leaving) are not a lost connection.
        if (code === RESTART_CLOSE_CODE || code === 1000) return;
        if (status === 'connected') setStatus('lost');
        // Fatal codes and exhausted retries reach the subscription's sink and the hook from there.
      },
      error: report,
    },
  });

  /** The subscriptions callers hold: each starts again on resume. */
  const active = new Set<{ start(): void; pause(): void; stop(): void }>();
  let suspended = false;

  return {
    subscribe(request, sink) {
      /** The server-side subscription of now; a paused one's late completion is not the caller's end. */
      let run: { release: () => void; paused: boolean } | undefined;
      const entry = {
        start() {
          const own = { release: () => {}, paused: false };
          run = own;
          own.release = client.subscribe(request as Parameters<Client['subscribe']>[0], {
            next: (value) => sink.next(value as { data?: never }),
            complete: () => {
              if (own.paused) return;
              active.delete(entry);
              sink.complete();
            },
            error: (error) => {
              if (own.paused) return;
              active.delete(entry);
              // A subscription that ends in error will not come back by itself: the channel is lost.
              if (status !== 'idle') setStatus('lost');
              report(error);
              sink.error(error);
            },
          });
        },
        pause() {
          if (run) run.paused = true;
          run?.release();
          run = undefined;
        },
        stop() {
          active.delete(entry);
          run?.release();
        },
      };
      active.add(entry);
      if (!suspended) entry.start();
      return entry.stop;
    },
    suspend() {
      if (suspended) return;
      suspended = true;
      // With the last subscription released, graphql-ws closes the socket (1000: a planned close).
      for (const entry of active) entry.pause();
      setStatus('idle');
    },
    resume() {
      if (!suspended) return;
      suspended = false;
      for (const entry of active) entry.start();
    },
    restart() {
      // Without an open socket there is nothing to restart: the next connection reads the new token.
      if (socket?.readyState !== 1) return;
      restarting = true;
      socket.close(RESTART_CLOSE_CODE, 'Client Restart');
    },
    status: () => status,
    onStatus(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose: async () => {
      // graphql-ws awaits a connection in progress to close it; one that fails has nothing to close.
      await Promise.resolve(client.dispose()).catch(() => {});
    },
  };
}
