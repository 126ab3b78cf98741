import { LAYER_ERRORS } from '../errors.ts';
import { logger } from '../logger.ts';

/** onEntryChange subscribers: called with no arguments, removable by id or by callback. */
export type EntryChangeCallback = () => void;

export interface Subscribers {
  /** By id, in registration order. */
  readonly entries: Map<string, EntryChangeCallback>;
  add(callback: EntryChangeCallback): string;
  remove(idOrCallback: string | EntryChangeCallback): void;
  /** Calls every subscriber; one that throws is logged and does not stop the others. */
  run(): void;
}

/** A v4 UUID, also outside secure contexts where `crypto.randomUUID` is missing. */
function uuid(crypto: Crypto): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function createSubscribers(crypto: Crypto): Subscribers {
  const entries = new Map<string, EntryChangeCallback>();
  return {
    entries,
    add(callback) {
      const id = uuid(crypto);
      entries.set(id, callback);
      return id;
    },
    remove(idOrCallback) {
      if (typeof idOrCallback === 'string') {
        if (!entries.delete(idOrCallback)) logger.warn(LAYER_ERRORS.NO_SUBSCRIBER_ID);
        return;
      }
      const ids = [...entries].filter(([, callback]) => callback === idOrCallback).map(([id]) => id);
      if (ids.length === 0) logger.warn(LAYER_ERRORS.NO_SUBSCRIBER_CALLBACK);
      for (const id of ids) entries.delete(id);
    },
    run() {
      for (const callback of [...entries.values()]) {
        try {
          callback();
        } catch (error) {
          logger.error(error);
        }
      }
    },
  };
}
