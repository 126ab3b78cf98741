import { type FSWatcher, watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import type { TSchema } from '@sinclair/typebox';
import sjson from 'secure-json-parse';
import type { ApplicationConfiguration, PageEntry } from '../../common/content.ts';
import { type ContentKey, contentFile, draftRoot } from './paths.ts';
import {
  ApplicationConfigurationSchema,
  ComponentSchemas,
  firstProblem,
  PageSchema,
  templateProblem,
} from './schemas.ts';
import { ContentError, type ContentService } from './service.ts';

export interface EmbeddedStoreOptions {
  dir: string;
  /** Watch the folder and drop the cache on change (development). */
  watch?: boolean;
}

export interface EmbeddedStore extends ContentService {
  /** Drop every cached entry (the revalidate endpoint, or a file change). */
  invalidate(): void;
  /** Called after every invalidation, so caches built on top (rendered HTML) can follow. */
  onInvalidate(listener: () => void): void;
  close(): void;
}

const EMPTY_APP_CONFIG: ApplicationConfiguration = { globals: { dhfIsEnabled: false }, navigation: {} };

/**
 * The embedded content store: one JSON file per entry (contract section 4). Published entries are
 * parsed and validated once and kept in memory; drafts are read on every call and never cached.
 */
export function createEmbeddedStore(options: EmbeddedStoreOptions): EmbeddedStore {
  const { dir } = options;
  const cache = new Map<string, Promise<unknown>>();
  const listeners: (() => void)[] = [];
  let watcher: FSWatcher | undefined;

  const invalidate = () => {
    cache.clear();
    for (const listener of listeners) listener();
  };
  if (options.watch) {
    watcher = watch(dir, { recursive: true }, invalidate);
    watcher.unref();
  }

  /** Reads and validates one file; a missing file is null, a broken one a ContentError naming file and path. */
  async function readValidated(file: string, validate: (value: unknown) => string | null): Promise<unknown> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new ContentError('CONTENT_INVALID', 'Content file cannot be read', relative(dir, file), { cause: error });
    }
    let value: unknown;
    try {
      // Content JSON never changes a prototype (security catalogue, case 11).
      value = sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
    } catch (error) {
      throw new ContentError('CONTENT_INVALID', `Invalid JSON: ${(error as Error).message}`, relative(dir, file));
    }
    const problem = validate(value);
    if (problem)
      throw new ContentError(
        'CONTENT_INVALID',
        `Invalid content: ${problem}`,
        `${relative(dir, file)} ${problem.split(':')[0]}`,
      );
    return value;
  }

  function read(key: ContentKey, validate: (value: unknown) => string | null, preview?: string): Promise<unknown> {
    if (preview) {
      const overlay = draftRoot(dir, preview);
      const draftFile = overlay && contentFile(overlay, key);
      if (draftFile) {
        return readValidated(draftFile, validate).then((draft) => draft ?? read(key, validate));
      }
    }
    const file = contentFile(dir, key);
    if (!file) return Promise.resolve(null);
    let pending = cache.get(file);
    if (!pending) {
      pending = readValidated(file, validate);
      cache.set(file, pending);
      // A failed read is not remembered: the next request tries again (the file may be fixed).
      pending.catch(() => cache.get(file) === pending && cache.delete(file));
    }
    return pending;
  }

  const schemaCheck = (schema: TSchema) => (value: unknown) => firstProblem(schema, value);

  return {
    async getPage(uuid, locale, preview) {
      return (await read({ kind: 'page', uuid, locale }, schemaCheck(PageSchema), preview)) as PageEntry | null;
    },
    async getEntry<T>(type: string, uid: string, locale: string, preview?: string) {
      const validate = type.endsWith('_template')
        ? templateProblem
        : ComponentSchemas[type]
          ? schemaCheck(ComponentSchemas[type])
          : () => null;
      return (await read({ kind: 'entry', contentType: type, uid, locale }, validate, preview)) as T | null;
    },
    async getApplicationConfiguration(_host, locale) {
      const value = await read({ kind: 'appConfig', locale }, schemaCheck(ApplicationConfigurationSchema));
      return (value as ApplicationConfiguration | null) ?? EMPTY_APP_CONFIG;
    },
    async hasPage(uuid, locale) {
      try {
        return (await this.getPage(uuid, locale)) !== null;
      } catch {
        return false;
      }
    },
    invalidate,
    onInvalidate(listener) {
      listeners.push(listener);
    },
    close() {
      watcher?.close();
    },
  };
}
