import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { type ContentKey, contentFile, draftRoot, isValidKey, isValidPreviewHash } from './paths.ts';
import { writeAtomically } from './write-atomically.ts';

/**
 * Where drafts and comment threads live: files under `{CONTENT_DIR}/_drafts` (one instance, or a
 * volume all instances mount), or Redis (server/shared/draft-store.ts) when instances share it. The
 * embedded store reads drafts through it; the draft API and the workbench write through it.
 * Callers check shapes first (hash, key); a store refuses nothing itself but what cannot be a path.
 */
export interface DraftStore {
  /** The draft's JSON text, or null when the hash has none for this entry. */
  read(hash: string, key: ContentKey): Promise<string | null>;
  /** Stores the draft; true when it replaced one. */
  write(hash: string, key: ContentKey, text: string): Promise<boolean>;
  /** Removes the draft; false when there was none. */
  remove(hash: string, key: ContentKey): Promise<boolean>;
  /** Hashes holding drafts of `locale` (the comment threads excluded). */
  hashes(locale: string): Promise<string[]>;
  /** A page's comment threads (JSON text), or null. */
  readThreads(locale: string, uuid: string): Promise<string | null>;
  writeThreads(locale: string, uuid: string, text: string): Promise<void>;
  /** Where a draft is, for warnings and errors about its fields. */
  locate(hash: string, key: ContentKey): string;
}

/** Not a draft overlay: comment threads sit at `_collab/{locale}/{uuid}.json`, one level shallower. */
export const THREADS_HASH = '_collab';

export function fileDraftStore(contentDir: string): DraftStore {
  const fileOf = (hash: string, key: ContentKey) => {
    const root = draftRoot(contentDir, hash);
    return root ? contentFile(root, key) : null;
  };
  const threadsFile = (locale: string, uuid: string) => {
    const root = draftRoot(contentDir, THREADS_HASH);
    return root && isValidKey({ kind: 'page', locale, uuid }) ? resolve(root, locale, `${uuid}.json`) : null;
  };
  const readText = (file: string | null) =>
    file
      ? readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return null;
          throw error;
        })
      : Promise.resolve(null);

  return {
    read: (hash, key) => readText(fileOf(hash, key)),
    async write(hash, key, text) {
      const file = fileOf(hash, key);
      if (!file) throw new TypeError('Not a draft path');
      const existed = await stat(file).then(
        () => true,
        () => false,
      );
      // A preview request never reads half a file.
      await writeAtomically(file, text);
      return existed;
    },
    async remove(hash, key) {
      const file = fileOf(hash, key);
      if (!file) return false;
      return rm(file).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return false;
          throw error;
        },
      );
    },
    async hashes(locale) {
      const all = resolve(contentDir, '_drafts');
      const found: string[] = [];
      for (const hash of await readdir(all).catch(() => [] as string[])) {
        const root = hash !== THREADS_HASH && draftRoot(contentDir, hash);
        if (root && (await readdir(resolve(root, locale)).catch(() => [])).length > 0) found.push(hash);
      }
      return found.sort();
    },
    readThreads: (locale, uuid) => readText(threadsFile(locale, uuid)),
    async writeThreads(locale, uuid, text) {
      const file = threadsFile(locale, uuid);
      if (!file) throw new TypeError('Not a page of its shape');
      await writeAtomically(file, text);
    },
    locate: (hash, key) => {
      const file = fileOf(hash, key);
      return file ? relative(contentDir, file) : '(not a draft key)';
    },
  };
}

/** The key of a draft named by the draft API's path segments (`pages` or a content type). */
export function draftKey(type: string, id: string, locale: string): ContentKey {
  return type === 'pages' ? { kind: 'page', locale, uuid: id } : { kind: 'entry', locale, contentType: type, uid: id };
}

/** True when hash and key can name a draft. */
export function isDraftAddress(hash: string, key: ContentKey): boolean {
  return isValidPreviewHash(hash) && isValidKey(key);
}
