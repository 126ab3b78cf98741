import { EVENT_MANAGER, type WireError } from './errors.ts';

/**
 * The message envelope of advanced-post-message: all six keys always present, in
 * the library's creation order, `metadata` with exactly `hash` and `nature`.
 */

export type Nature = 'REQUEST' | 'RESPONSE' | 'ACK';

export interface Envelope {
  eventManager: typeof EVENT_MANAGER;
  metadata: { hash: string; nature: Nature };
  channel: string;
  error: WireError | undefined;
  payload: unknown;
  type: string;
}

/** Longest type and hash we accept: real ones are a few dozen characters. */
const MAX_NAME = 200;

export function envelope(
  channel: string,
  type: string,
  hash: string,
  nature: Nature,
  payload?: unknown,
  error?: WireError,
): Envelope {
  return { eventManager: EVENT_MANAGER, metadata: { hash, nature }, channel, error, payload, type };
}

/** `{type}-{8 lowercase hex}`; getRandomValues works outside secure contexts, unlike randomUUID. */
export function exchangeId(type: string, crypto: Crypto): string {
  const [n = 0] = crypto.getRandomValues(new Uint32Array(1));
  return `${type}-${n.toString(16).padStart(8, '0')}`;
}

/** An envelope as received: the nature is checked by the receiver, which logs unknown ones. */
export type Received = Omit<Envelope, 'metadata'> & { metadata: { hash: string; nature: string } };

const isName = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= MAX_NAME;

/**
 * The envelope in `data` when it is one of ours on `channel`, else null. Nothing else of `data` is
 * read before this passes; a nature outside the three is left for the receiver to log.
 */
export function readEnvelope(data: unknown, channel: string): Received | null {
  if (typeof data !== 'object' || data === null) return null;
  const message = data as Record<string, unknown>;
  if (message.eventManager !== EVENT_MANAGER || message.channel !== channel || !isName(message.type)) return null;
  const metadata = message.metadata as Record<string, unknown> | null | undefined;
  if (typeof metadata !== 'object' || metadata === null) return null;
  if (!isName(metadata.hash) || typeof metadata.nature !== 'string') return null;
  const error = message.error as Record<string, unknown> | null | undefined;
  // `null` counts as no error: a peer that serialises through JSON cannot send `undefined`.
  if (error != null && (typeof error.code !== 'string' || typeof error.message !== 'string')) return null;
  return {
    eventManager: EVENT_MANAGER,
    metadata: { hash: metadata.hash, nature: metadata.nature },
    channel,
    error: error ? { code: error.code as string, message: error.message as string } : undefined,
    payload: message.payload,
    type: message.type,
  };
}
