import type { Api } from './api.ts';
import type { EditedEntry } from './entries.ts';

/**
 * Drafts: an edited entry is written through the draft API under this tab's preview hash (a burst
 * of typing once, 250 ms after it pauses), then the page is told with `client-data-send` unless
 * the page itself is the one typing. Saved entries wait for Publish.
 */

const SAVE_DEBOUNCE_MS = 250;

export interface Drafts {
  hash: string;
  /** Entries with a draft not yet published. */
  dirty: Set<EditedEntry>;
  save(entry: EditedEntry, announce?: boolean): Promise<void>;
  saveSoon(entry: EditedEntry): void;
}

export interface DraftDeps {
  api: Api;
  hash: string;
  /** Tells the page there is new draft content (`client-data-send`). */
  announce(hash: string): Promise<unknown>;
  say(text: string, kind?: 'info' | 'error'): void;
  /** After each saved draft (Publish becomes possible). */
  saved(): void;
}

export const draftUrl = (hash: string, entry: EditedEntry) =>
  `/cs/api/contentstack/_drafts/${hash}/${entry.locale}/${entry.type}/${entry.id}`;

export function createDrafts({ api, hash, announce, say, saved }: DraftDeps): Drafts {
  const dirty = new Set<EditedEntry>();
  const timers = new Map<EditedEntry, ReturnType<typeof setTimeout>>();
  async function save(entry: EditedEntry, tell = true): Promise<void> {
    try {
      await api(draftUrl(hash, entry), { method: 'PUT', body: JSON.stringify(entry.value) });
      dirty.add(entry);
      saved();
      say(`Draft saved (${entry.contentType} ${entry.uid})`);
      if (tell) await announce(hash);
    } catch (error) {
      say(`Draft not saved: ${(error as Error).message}`, 'error');
    }
  }
  return {
    hash,
    dirty,
    save,
    saveSoon(entry) {
      clearTimeout(timers.get(entry));
      timers.set(
        entry,
        setTimeout(() => void save(entry), SAVE_DEBOUNCE_MS),
      );
    },
  };
}

/** This tab's preview hash, kept for the session: `wb-` and 12 hex digits. */
export function sessionHash(storage: Storage, random: () => string = () => crypto.randomUUID()): string {
  const key = 'vitrine-workbench-hash';
  let hash = storage.getItem(key);
  if (!hash) {
    hash = `wb-${random().slice(0, 13).replace(/-/g, '')}`;
    storage.setItem(key, hash);
  }
  return hash;
}
