import type { IncomingMessage } from 'node:http';
import { CloseCode, handleProtocols, makeServer, type ServerOptions } from 'graphql-ws';
import type { WebSocket, WebSocketServer } from 'ws';
import { ERROR_LOG_LIMITS, logBudget } from './error-log.ts';

/** How often a socket is pinged; one that has not answered by the next ping is cut (graphql-ws's default). */
const KEEP_ALIVE_MS = 12_000;
/**
 * How long a socket the protocol closes may take to answer the close frame before it is cut. `ws`
 * waits 30 s for it: a client that never sent `connection_init` and never answers held its place
 * 33 s instead of the 3 s graphql-ws allows it (decision 0178).
 */
const CLOSE_ANSWER_MS = 2_000;

export interface SocketLog {
  warn(details: object, message: string): void;
}

/**
 * graphql-ws's protocol server (`makeServer`) carried over `ws` sockets, in place of graphql-ws's
 * own `useServer` adapter (docs/decisions/0141-socket-messages-gated.md): that one hands every
 * message to the protocol, including those a socket sent after it was closed for its message
 * budget, and writes its failures with `console.error` and their stacks, which a client provoked
 * at ~450 bytes a message. Here `admit` decides first, and a message it refuses is dropped
 * unparsed; failures go to the log trimmed, budgeted per client address.
 */
export function serveGraphQLOverSockets<E extends { socket: WebSocket; request: IncomingMessage }>(
  wss: WebSocketServer,
  options: ServerOptions<Record<string, unknown> | undefined, E>,
  transport: {
    /** Whether this message reaches the protocol; false drops it unread. */
    admit: (socket: WebSocket) => boolean;
    /** The address a socket's failures are budgeted against. */
    clientOf: (request: IncomingMessage) => string;
    log?: SocketLog;
  },
): { dispose(): Promise<void> } {
  const server = makeServer(options);
  const budget = logBudget(ERROR_LOG_LIMITS);
  const report = (request: IncomingMessage, error: unknown, message: string) => {
    const allowed = budget(transport.clientOf(request));
    if (allowed === 'silent') return;
    const text = error instanceof Error ? error.message : String(error);
    transport.log?.warn(
      allowed === 'last' ? { limit: ERROR_LOG_LIMITS.perAddress } : { error: text.slice(0, 200) },
      allowed === 'last' ? `${message}: further failures from this address are not logged this minute` : message,
    );
  };
  wss.options.handleProtocols = handleProtocols;
  wss.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    socket.on('error', (error) => {
      report(request, error, 'GraphQL socket failed');
      socket.terminate();
    });
    let pongWait: NodeJS.Timeout | undefined;
    const ping = setInterval(() => {
      if (socket.readyState !== socket.OPEN || pongWait) return;
      pongWait = setTimeout(() => socket.terminate(), KEEP_ALIVE_MS);
      socket.once('pong', () => {
        clearTimeout(pongWait);
        pongWait = undefined;
      });
      socket.ping();
    }, KEEP_ALIVE_MS);
    const closed = server.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise<void>((resolve, reject) => {
            if (socket.readyState !== socket.OPEN) return resolve();
            socket.send(data, (error) => (error ? reject(error) : resolve()));
          }),
        close: (code, reason) => {
          socket.close(code, reason);
          setTimeout(() => socket.terminate(), CLOSE_ANSWER_MS).unref();
        },
        onMessage: (handle) =>
          socket.on('message', (data) => {
            if (!transport.admit(socket)) return;
            handle(String(data)).catch((error: unknown) => {
              report(request, error, 'GraphQL socket message failed');
              socket.close(CloseCode.InternalServerError, 'Internal server error');
            });
          }),
      },
      { socket, request } as E,
    );
    socket.once('close', (code, reason) => {
      clearInterval(ping);
      clearTimeout(pongWait);
      closed(code, String(reason));
    });
  });
  return {
    dispose: async () => {
      for (const client of wss.clients) client.close(1001, 'Going away');
      wss.removeAllListeners();
      await new Promise<void>((resolve, reject) => wss.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
