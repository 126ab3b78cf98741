import { isRecord } from '../common/is-record.ts';
import type { VariantPatch } from './builder/protocol.ts';
/**
 * Every channel, message type and payload the core speaks, in one place, as the editor's own
 * SDK 3.2.5 puts them on the wire (the builder's and collaboration's own messages sit beside their
 * chunks). Incoming payloads pass through the
 * `read*` functions below before a handler sees them; a payload that fails throws, and the
 * transport answers the request with an error response.
 */

/** The layer version the editor sees (`init.config.sdkVersion`, `getSdkVersion()`). */
export const SDK_VERSION = '4.4.1';

export const CHANNELS = {
  livePreview: 'live-preview',
  visualBuilder: 'visual-builder',
  timeline: 'timeline',
} as const;

/** Wire form of the mode: a number (1 preview, 2 builder), not the string of the config. */
export const MODE = { preview: 1, builder: 2 } as const;
export type ModeNumber = (typeof MODE)[keyof typeof MODE];

export type WindowType = 'preview' | 'builder' | 'independent' | 'preview-share';
const WINDOW_TYPES: readonly string[] = ['preview', 'builder', 'independent', 'preview-share'];

/**
 * One request of the protocol: the payload it carries and the reply it gets. Types only: the wire
 * carries the name as a string and the payload as it is, so none of this is in the bundle.
 *
 * For a request the layer sends, `payload` is checked where it is sent, and `reply` is what the
 * answer's `read*` function makes of it (the editor's answer is untrusted until read). For a
 * request the layer answers, `payload` is what the handler's `read*` function makes of the
 * editor's data, and `reply` is checked where the handler returns it.
 */
export interface Exchange<Payload = unknown, Reply = unknown> {
  payload: Payload;
  reply: Reply;
}

/** The requests one side of a channel speaks, by name (an interface of `Exchange`s). */
export type Exchanges<M> = { [K in keyof M]: Exchange };
/**
 * Any request at all: the channel the core hands a chunk (one channel, several features), which
 * the chunk's context narrows to its own messages, so it must fit every feature's `Channel`.
 */
// biome-ignore lint/suspicious/noExplicitAny: an unnarrowed channel fits every feature's message map.
export type Messages = any;
/** No requests (a channel the layer only answers on, or only sends on). */
export type NoMessages = Record<never, Exchange>;

/**
 * Layer → editor requests on the live-preview channel. Message names are types, not objects: a
 * misspelt one, or a payload of the wrong shape, does not compile, and the bundle carries each
 * name once, as the string the wire needs.
 */
export interface Sent {
  init: Exchange<InitRequest, InitReply>;
  'check-entry-page': Exchange<{ href: string }, void>;
  scroll: Exchange<ScrollRequest, void>;
  'url-change': Exchange<{ targetURL: string }, void>;
}

/** Layer → editor requests of the core on the visual-builder channel (the builder's own are in builder/protocol.ts). */
export interface BuilderCoreSent {
  init: Exchange<BuilderInitRequest, BuilderInitReply>;
  'send-variant-and-locale': Exchange<void, void>;
}

/** Editor → layer requests the core answers on the live-preview channel. */
export interface Received {
  history: Exchange<HistoryRequest, void>;
  'client-data-send': Exchange<ClientDataSend, void>;
  /** Handled by the builder chunk (builder/variant-watch.ts). */
  'variant-patch-update': Exchange<VariantPatch, void>;
}

/** Editor → layer requests Timeline answers on the timeline channel. */
export interface TimelineReceived {
  'send-current-base-route': Exchange<void, { url: string | undefined }>;
  /** Every valid tag's rendered HTML (or a void element's attributes), by tag. */
  'send-cslp-data': Exchange<void, Record<string, string>>;
  'diff-value': Exchange<DiffValue, void>;
  'remove-diff': Exchange<void, void>;
}

export interface InitRequest {
  config: {
    shouldReload: boolean;
    href: string;
    sdkVersion: string;
    mode: ModeNumber;
    /** 4.3: sent only when the page configures it. */
    enableLivePreviewOutsideIframe?: boolean;
  };
}
export interface InitReply {
  contentTypeUid?: string;
  entryUid?: string;
  windowType?: WindowType;
}
export interface BuilderInitRequest {
  isSSR: boolean;
  href: string;
}
export interface BuilderInitReply {
  windowType?: WindowType;
  masterLocale?: string;
  collab?: Record<string, unknown>;
}
export interface ScrollRequest {
  field: string;
  content_type_uid: string;
  entry_uid: string;
  variant: string | undefined;
  locale: string;
}
export interface HistoryRequest {
  type: 'forward' | 'backward' | 'reload';
}
export interface ClientDataSend {
  hash: string;
  /** 4.x, for a page in a new tab: the entry the hash belongs to, and where the editor went. */
  entryUid?: string | undefined;
  contentTypeUid?: string | undefined;
  url?: string | undefined;
  /** 4.x `_metadata.event_type`: set, the page follows the editor instead of refreshing. */
  eventType?: 'hash_change' | 'url_change' | undefined;
}
export interface DiffValue {
  diff: Record<string, string>;
  /** `base` marks removed content; any other value marks added content. */
  type: string;
}

/** Thrown by a reader: the request is answered with an error response, never half-handled. */
export class PayloadError extends Error {
  override readonly name = 'PayloadError';
}

const optionalString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function record(value: unknown, type: string): Record<string, unknown> {
  if (!isRecord(value)) throw new PayloadError(`${type}: payload must be an object`);
  return value;
}

const windowType = (value: unknown): WindowType | undefined =>
  typeof value === 'string' && WINDOW_TYPES.includes(value) ? (value as WindowType) : undefined;

/** A reply we cannot read counts as an empty one: the caller then applies its defaults. */
export function readInitReply(value: unknown): InitReply {
  const reply = isRecord(value) ? value : {};
  return {
    contentTypeUid: optionalString(reply.contentTypeUid),
    entryUid: optionalString(reply.entryUid),
    windowType: windowType(reply.windowType),
  };
}

export function readBuilderInitReply(value: unknown): BuilderInitReply {
  const reply = isRecord(value) ? value : {};
  const details = isRecord(reply.stackDetails) ? reply.stackDetails : {};
  return {
    windowType: windowType(reply.windowType),
    masterLocale: optionalString(details.masterLocale),
    collab: isRecord(reply.collab) ? reply.collab : undefined,
  };
}

export function readHistory(value: unknown): HistoryRequest {
  const type = record(value, 'history').type;
  if (type !== 'forward' && type !== 'backward' && type !== 'reload')
    throw new PayloadError(`history: unknown type ${String(type)}`);
  return { type };
}

export function readClientDataSend(value: unknown): ClientDataSend {
  const data = record(value, 'client-data-send');
  const { hash } = data;
  if (typeof hash !== 'string') throw new PayloadError(`client-data-send: hash must be a string`);
  const type = isRecord(data._metadata) ? data._metadata.event_type : undefined;
  return {
    hash,
    entryUid: optionalString(data.entry_uid),
    contentTypeUid: optionalString(data.content_type_uid),
    url: optionalString(data.url),
    eventType: type === 'hash_change' || type === 'url_change' ? type : undefined,
  };
}

export function readDiffValue(value: unknown): DiffValue {
  const payload = record(value, 'diff-value');
  const diff = record(payload.diff, 'diff-value');
  for (const html of Object.values(diff))
    if (typeof html !== 'string') throw new PayloadError(`diff-value: diff values must be strings`);
  return { diff: diff as Record<string, string>, type: String(payload.type) };
}
