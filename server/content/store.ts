import { type FSWatcher, watch } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import type { TSchema } from '@sinclair/typebox';
import { LRUCache } from 'lru-cache';
import sjson from 'secure-json-parse';
import type { ApplicationConfiguration, PageEntry } from '../../common/content.ts';
import { problemText } from '../errors.ts';
import { ContentChanges } from './changes.ts';
import { type DraftStore, fileDraftStore, isDraftAddress } from './draft-store.ts';
import { type ContentKey, contentFile, pageIdOfFile, pagesFolder } from './paths.ts';
import { ComponentSchemas, firstProblem } from './schemas.ts';
import { ContentError, type ContentService } from './service.ts';
import { type ContentWarning, readApplicationConfiguration, readPage, readTemplate } from './tolerant.ts';

export interface EmbeddedStoreOptions {
  dir: string;
  /** Published entries kept in memory at most (least recently used go first). */
  maxEntries?: number;
  /** Watch the folder and drop the cache on change (development). */
  watch?: boolean;
  /** Where fallbacks taken for malformed fields are reported (once per file read). */
  logger?: { warn(details: object, message: string): void };
  /** Where drafts are read from: files under `_drafts` unless another store is given (Redis). */
  drafts?: DraftStore;
}

/** Turns a parsed file into the entry the renderer gets, or throws a ContentError naming file and field. */
type Parse = (value: unknown, where: string) => unknown;

export interface EmbeddedStore extends ContentService {
  /** Where this store's drafts and comment threads are kept. */
  readonly drafts: DraftStore;
  /** The page ids of a locale, by number: the embedded store can always list them. */
  listPages(locale: string): Promise<string[]>;
  /** How many published entries are held in memory now. */
  cachedEntries(): number;
  close(): void;
}

const EMPTY_APP_CONFIG: ApplicationConfiguration = { globals: { dhfIsEnabled: false }, navigation: {} };

/**
 * The embedded content store: one JSON file per entry. Published entries are
 * parsed and validated once and kept in memory; drafts are read on every call and never cached.
 */
export function createEmbeddedStore(options: EmbeddedStoreOptions): EmbeddedStore {
  const { dir } = options;
  // Bounded: every key a request can name is a cache entry, so an unbounded map grows with whatever
  // ids a client invents. Far above the demo's few thousand entries.
  const cache = new LRUCache<string, Promise<unknown>>({ max: options.maxEntries ?? 20_000 });
  const drafts = options.drafts ?? fileDraftStore(dir);
  const changes = new ContentChanges(options.logger);
  changes.subscribe(() => cache.clear());
  let watcher: FSWatcher | undefined;
  if (options.watch) {
    watcher = watch(dir, { recursive: true }, () => changes.announce({ origin: 'watch' }));
    watcher.unref();
  }

  /** Reads and parses one file; a missing file is null, unreadable JSON a ContentError naming the file. */
  async function readValidated(file: string, parse: Parse): Promise<unknown> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new ContentError('CONTENT_INVALID', 'Content file cannot be read', relative(dir, file), { cause: error });
    }
    return parseText(text, relative(dir, file), parse);
  }

  function parseText(text: string, where: string, parse: Parse): unknown {
    let value: unknown;
    try {
      // Content JSON never changes a prototype.
      value = sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
    } catch (error) {
      throw new ContentError('CONTENT_INVALID', `Invalid JSON: ${(error as Error).message}`, where);
    }
    return parse(value, where);
  }

  /** The draft of `key` under `hash`, parsed, or null; a broken draft is reported like a broken file. */
  async function readDraft(hash: string, key: ContentKey, parse: Parse): Promise<unknown> {
    const text = await drafts.read(hash, key);
    return text === null ? null : parseText(text, drafts.locate(hash, key), parse);
  }

  function read(key: ContentKey, validate: Parse, preview?: string): Promise<unknown> {
    if (preview && isDraftAddress(preview, key)) {
      return readDraft(preview, key, validate).then((draft) => draft ?? read(key, validate));
    }
    const file = contentFile(dir, key);
    if (!file) return Promise.resolve(null);
    let pending = cache.get(file);
    if (!pending) {
      pending = readValidated(file, validate);
      cache.set(file, pending);
      // Neither a failed read (the file may be fixed) nor a missing file (any id a client makes up)
      // is remembered: only entries that exist take a place in the cache.
      const forget = () => cache.peek(file) === pending && cache.delete(file);
      pending.then((value) => value === null && forget(), forget);
    }
    return pending;
  }

  const warn = (warning: ContentWarning) => options.logger?.warn(warning, 'Content field unusable; fallback used');
  const schemaCheck =
    (schema: TSchema): Parse =>
    (value, where) => {
      const problem = firstProblem(schema, value);
      if (problem)
        throw new ContentError(
          'CONTENT_INVALID',
          `Invalid content: ${problemText(problem)}`,
          `${where} ${problem.path}`,
        );
      return value;
    };

  return {
    async getPage(uuid, locale, preview) {
      const parse: Parse = (value, where) => readPage(value, { uuid, locale }, where, warn);
      return (await read({ kind: 'page', uuid, locale }, parse, preview)) as PageEntry | null;
    },
    async getEntry<T>(type: string, uid: string, locale: string, preview?: string) {
      const parse: Parse = type.endsWith('_template')
        ? (value, where) => readTemplate(value, where, warn)
        : ComponentSchemas[type]
          ? schemaCheck(ComponentSchemas[type])
          : (value) => value;
      return (await read({ kind: 'entry', contentType: type, uid, locale }, parse, preview)) as T | null;
    },
    async getApplicationConfiguration(_host, locale) {
      const parse: Parse = (value, where) => readApplicationConfiguration(value, where, warn);
      const value = await read({ kind: 'appConfig', locale }, parse);
      return (value as ApplicationConfiguration | null) ?? EMPTY_APP_CONFIG;
    },
    locate(key) {
      const file = contentFile(dir, key);
      return file ? relative(dir, file) : '(not a content key)';
    },
    async hasPage(uuid, locale) {
      try {
        return (await this.getPage(uuid, locale)) !== null;
      } catch {
        return false;
      }
    },
    async listPages(locale) {
      const folder = pagesFolder(dir, locale);
      if (!folder) return [];
      const names = await readdir(folder).catch(() => [] as string[]);
      return names.flatMap((name) => pageIdOfFile(name) ?? []).sort((a, b) => Number(a) - Number(b));
    },
    cachedEntries: () => cache.size,
    changes,
    drafts,
    close() {
      watcher?.close();
    },
  };
}
