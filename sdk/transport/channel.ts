import type { PageWindow } from '../dom.ts';
import { logger } from '../logger.ts';
import type { Exchanges, Messages } from '../protocol.ts';
import { ACK_BUDGET_MS, RESPONSE_CYCLE_MS } from '../timing.ts';
import { envelope, exchangeId, type Nature, type Received, readEnvelope } from './envelope.ts';
import { MessagingError, messagingError, type WireError } from './errors.ts';
import type { Peer } from './peer.ts';

/**
 * One channel of advanced-post-message, wire-compatible with the library:
 * a request is ACKed at once and answered by its handler's result; our requests fail when no ACK
 * arrives within 1000 ms (checked every 500 ms) or the editor window closes, and wait for the
 * response without a limit once ACKed. Where 3.2.5 stays silent, a throwing handler is answered
 * with a CODE_RETURNED_ERROR response, so the editor is never left waiting.
 */
/**
 * A channel to the editor. `Sent` and `Received` map the requests a feature may use to their
 * payload and reply (protocol.ts), so a misspelt message, a payload of the wrong shape or a wrong
 * reply is a compile error; the wire carries any string. The editor's data and answers stay
 * `unknown` until a `read*` function has read them.
 */
export interface Channel<Sent extends Exchanges<Sent> = Messages, Received extends Exchanges<Received> = Messages> {
  send<T extends keyof Sent & string>(type: T, payload?: Sent[T]['payload']): Promise<unknown>;
  /**
   * One handler per type; a second registration replaces the first, as in the library. Returns its
   * unregistration (the library's `unregister`).
   */
  on<T extends keyof Received & string>(
    type: T,
    handler: (data: unknown) => Received[T]['reply'] | Promise<Received[T]['reply']>,
  ): () => void;
  /** Stops listening; pending requests fail with EVENT_CANCELLED. */
  destroy(): void;
}

interface Pending {
  acked: boolean;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

const wire = ({ code, message }: MessagingError): WireError => ({ code, message });

export function createChannel<S extends Exchanges<S> = Messages, R extends Exchanges<R> = Messages>(
  id: string,
  self: PageWindow,
  peer: Peer,
): Channel<S, R> {
  if (!id) throw messagingError('CHANNEL_ID_REQUIRED');
  const handlers = new Map<string, (data: unknown) => unknown>();
  const pending = new Map<string, Pending>();

  const post = (type: string, hash: string, nature: Nature, payload?: unknown, error?: WireError) =>
    peer.post(envelope(id, type, hash, nature, payload, error));

  async function answer({ type, metadata: { hash }, payload }: Received): Promise<void> {
    post(type, hash, 'ACK');
    const handler = handlers.get(type);
    if (!handler) {
      post(type, hash, 'RESPONSE', undefined, wire(messagingError('NO_REQUEST_LISTENER_FOUND', { type })));
      return;
    }
    try {
      // Posting inside the try: a result that cannot be cloned is answered as an error too.
      post(type, hash, 'RESPONSE', await handler(payload));
    } catch (error) {
      const failure = messagingError('CODE_RETURNED_ERROR');
      logger.error(failure.message, type, error);
      post(type, hash, 'RESPONSE', undefined, wire(failure));
    }
  }

  function receive(event: MessageEvent): void {
    // Who sent it first: reading `data` deserialises it, a cost a foreign sender must not impose.
    if (!peer.accepts(event)) {
      logger.debug('ignored a message from', event.origin || '(no origin)');
      return;
    }
    const message = readEnvelope(event.data, id);
    if (!message) return;
    logger.debug('received', id, message.metadata.nature, message.type, message.payload);
    const { nature, hash } = message.metadata;
    if (nature === 'REQUEST') {
      void answer(message);
      return;
    }
    const request = pending.get(hash);
    if (nature === 'ACK') {
      if (request) request.acked = true;
      else logger.debug(messagingError('NO_ACK_LISTENER_FOUND').message, hash);
    } else if (nature === 'RESPONSE') {
      if (!request) logger.debug(messagingError('NO_RESPONSE_LISTENER_FOUND').message, hash);
      else if (message.error) {
        logger.debug(messagingError('RECEIVER_RETURNED_ERROR').message, message.error);
        request.reject(new MessagingError(message.error.code, message.error.message));
      } else request.resolve(message.payload);
    } else logger.debug(messagingError('UNKNOWN_NATURE').message, nature);
  }

  self.addEventListener('message', receive);

  return {
    send(type: string, payload?: unknown): Promise<unknown> {
      return new Promise<unknown>((resolve, reject) => {
        const hash = exchangeId(type, self.crypto);
        let budget = ACK_BUDGET_MS;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const settle =
          <V>(done: (value: V) => void) =>
          (value: V) => {
            clearTimeout(timer);
            pending.delete(hash);
            done(value);
          };
        const request: Pending = {
          acked: false,
          resolve: settle(resolve),
          reject: settle(reject),
        };
        const check = () => {
          if (peer.closed()) return request.reject(messagingError('WINDOW_CLOSED'));
          budget -= RESPONSE_CYCLE_MS;
          if (!request.acked && budget <= 0) return request.reject(messagingError('NO_ACK_RECEIVED'));
          timer = setTimeout(check, RESPONSE_CYCLE_MS);
        };
        pending.set(hash, request);
        try {
          if (!post(type, hash, 'REQUEST', payload)) return request.reject(messagingError('WINDOW_NOT_FOUND'));
        } catch (error) {
          return request.reject(error as Error);
        }
        logger.debug('sent', id, type, payload);
        timer = setTimeout(check, RESPONSE_CYCLE_MS);
      });
    },
    on(type, handler) {
      if (handlers.has(type)) logger.debug(messagingError('EVENT_ALREADY_REGISTERED').message, type);
      handlers.set(type, handler);
      return () => {
        if (handlers.get(type) === handler) handlers.delete(type);
        else logger.debug(messagingError('EVENT_DOES_NOT_EXIST', { type }).message);
      };
    },
    destroy() {
      self.removeEventListener('message', receive);
      handlers.clear();
      for (const request of [...pending.values()]) request.reject(messagingError('EVENT_CANCELLED'));
    },
  };
}
