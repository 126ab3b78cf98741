import { isRecord } from './is-record.ts';
/**
 * Every channel, message type and payload the layer speaks, in one place (style guide 6), as
 * 3.2.5 puts them on the wire (reference sections b.1–b.4). Incoming payloads pass through the
 * `read*` functions below before a handler sees them; a payload that fails throws, and the
 * transport answers the request with an error response.
 */

/** The layer version the editor sees (`init.config.sdkVersion`, `getSdkVersion()`). */
export const SDK_VERSION = '3.2.5';

export const CHANNELS = {
  livePreview: 'live-preview',
  visualBuilder: 'visual-builder',
  timeline: 'timeline',
} as const;

/** Wire form of the mode: a number, not the string of the config (reference h). */
export const MODE = { preview: 1, builder: 2 } as const;
export type ModeNumber = (typeof MODE)[keyof typeof MODE];

export type WindowType = 'preview' | 'builder' | 'independent' | 'preview-share';
const WINDOW_TYPES: readonly string[] = ['preview', 'builder', 'independent', 'preview-share'];

/** Layer → editor requests. */
export const SENT = {
  init: 'init',
  checkEntryPage: 'check-entry-page',
  scroll: 'scroll',
  urlChange: 'url-change',
  sendVariantAndLocale: 'send-variant-and-locale',
} as const;

/** Editor → layer requests. */
export const RECEIVED = {
  history: 'history',
  clientDataSend: 'client-data-send',
  baseRoute: 'send-current-base-route',
  cslpData: 'send-cslp-data',
  diffValue: 'diff-value',
  removeDiff: 'remove-diff',
} as const;

export interface InitRequest {
  config: { shouldReload: boolean; href: string; sdkVersion: string; mode: ModeNumber };
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
  const type = record(value, RECEIVED.history).type;
  if (type !== 'forward' && type !== 'backward' && type !== 'reload')
    throw new PayloadError(`${RECEIVED.history}: unknown type ${String(type)}`);
  return { type };
}

export function readClientDataSend(value: unknown): ClientDataSend {
  const hash = record(value, RECEIVED.clientDataSend).hash;
  if (typeof hash !== 'string') throw new PayloadError(`${RECEIVED.clientDataSend}: hash must be a string`);
  return { hash };
}

export function readDiffValue(value: unknown): DiffValue {
  const payload = record(value, RECEIVED.diffValue);
  const diff = record(payload.diff, RECEIVED.diffValue);
  for (const html of Object.values(diff))
    if (typeof html !== 'string') throw new PayloadError(`${RECEIVED.diffValue}: diff values must be strings`);
  return { diff: diff as Record<string, string>, type: String(payload.type) };
}
