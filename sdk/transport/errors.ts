/**
 * The messaging error catalogue. Codes are those of
 * advanced-post-message; texts follow the spec where it gives one, and the library's exact wording
 * wherever a text travels on the wire (the editor may compare it). Never reuse a retired code.
 */

/** The library marker in every envelope, and the prefix of every messaging error text. */
export const EVENT_MANAGER = 'contentstack-adv-post-message';

export const MESSAGING_ERRORS = {
  /** The editor window went away while a request was pending. */
  WINDOW_CLOSED: 'The window closed before the response was received',
  /** There is no editor window to talk to: the page is not framed, or framed by a foreign origin. */
  WINDOW_NOT_FOUND: 'The window was not found.',
  /** A request of ours was answered with an error (logged in debug mode). */
  RECEIVER_RETURNED_ERROR: 'The receiver returned an error',
  /** Pending requests of a destroyed channel. */
  EVENT_CANCELLED: 'The event was cancelled',
  NO_ACK_RECEIVED: 'The ACK was not received',
  /** On the wire, in the library's words. */
  NO_REQUEST_LISTENER_FOUND: 'No request listener found for event "{type}"',
  /** On the wire: a handler threw or refused the payload. 3.2.5 sends nothing and leaves the editor waiting. */
  CODE_RETURNED_ERROR: 'The code returned an error',
  NO_RESPONSE_LISTENER_FOUND: 'No response listener found for hash',
  NO_ACK_LISTENER_FOUND: 'No ack listener found for hash',
  UNKNOWN_NATURE: 'The nature is unknown',
  EVENT_ALREADY_REGISTERED: 'The event is already registered',
  /** Unregistering a type that has no handler (logged in debug mode), in the library's words. */
  EVENT_DOES_NOT_EXIST: 'The event "{type}" does not exist',
  CHANNEL_ID_REQUIRED: 'The channelId is required',
} as const;

export type MessagingErrorCode = keyof typeof MESSAGING_ERRORS;

/** The `{code, message}` pair as it travels in a RESPONSE. */
export interface WireError {
  code: string;
  message: string;
}

/** A messaging failure; `code` is a catalogue code, or the code the editor sent. */
export class MessagingError extends Error implements WireError {
  override readonly name = 'MessagingError';
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** The catalogue text with its `{placeholders}` filled, prefixed like the library's own. */
export function messagingError(code: MessagingErrorCode, values: Record<string, string> = {}): MessagingError {
  const text = MESSAGING_ERRORS[code].replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');
  return new MessagingError(code, `${EVENT_MANAGER}: ${text}`);
}
