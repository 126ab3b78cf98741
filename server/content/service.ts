import type { ApplicationConfiguration, PageEntry } from '../../common/content.ts';
import type { ContentChanges } from './changes.ts';
import type { ContentKey } from './paths.ts';

/**
 * The one interface the renderer uses to read content. Two implementations: the embedded store
 * (in-process, files under CONTENT_DIR) and the HTTP upstream (CONTENT_SERVICE_URL).
 *
 * `preview` is the live-preview hash: when given, drafts overlay published content and nothing
 * is cached.
 */
export interface ContentService {
  /** The page entry, or null when the entries list is empty (404 `Page {id} not found`). */
  getPage(uuid: string, locale: string, preview?: string): Promise<PageEntry | null>;
  /** Any other entry (templates, components), or null when it does not exist. */
  getEntry<T = Record<string, unknown>>(type: string, uid: string, locale: string, preview?: string): Promise<T | null>;
  /**
   * `cookie` is the visitor's Cookie header; where the configuration is read over HTTP its
   * `appConfigCookie` part is forwarded (the answer may depend on it); the embedded store has one
   * answer for everybody.
   */
  getApplicationConfiguration(host: string, locale: string, cookie?: string): Promise<ApplicationConfiguration>;
  /**
   * The part of a visitor's Cookie header the application configuration may depend on: the
   * cookies the source was told matter (`APP_CONFIG_COOKIES`), in one order, or undefined when the
   * visitor sent none of them. Only that part is forwarded and splits caches; every other cookie
   * is the same as none. Absent where no cookie can matter.
   */
  appConfigCookie?(cookie: string | undefined): string | undefined;
  /**
   * Whether the host's application configuration in this language has said it depends on the
   * visitor's cookie (so a page for a visitor with a cookie must not come from, or go into, a cache
   * shared by URL). Absent where the source has one answer for everybody.
   */
  appConfigVaries?(host: string, locale: string): boolean;
  /** Cheap existence check, for hreflang alternates and switchers. */
  hasPage(uuid: string, locale: string): Promise<boolean>;
  /** Where an entry is read from (store file or API URL), for warnings about its fields. */
  locate?(key: ContentKey): string;
  /** The ids of every published page of a locale, for the sitemap; absent where the source cannot list. */
  listPages?(locale: string): Promise<string[]>;
  /** Where changes are announced and heard; the source clears its own cache on each, first. */
  readonly changes: ContentChanges;
}

/**
 * A content read failed for a reason the visitor cannot fix: a malformed file, an upstream fault.
 * `where` names the file and JSON path, or the upstream URL, for the log line; never shown to visitors.
 */
export class ContentError extends Error {
  readonly code: 'CONTENT_INVALID' | 'CONTENT_UPSTREAM';
  readonly where: string;
  constructor(
    code: 'CONTENT_INVALID' | 'CONTENT_UPSTREAM',
    message: string,
    where: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ContentError';
    this.code = code;
    this.where = where;
  }
}

/**
 * `hasPage` over a remote `getPage`, by the store's rule: a page that cannot be checked (its read
 * failed) is absent, so an alternate link is left out rather than failing the page; the warning
 * names `source`.
 */
export function hasPageBy(
  getPage: ContentService['getPage'],
  logger: { warn(details: object, message: string): void } | undefined,
  source: string,
): ContentService['hasPage'] {
  return async (uuid, locale) => {
    try {
      return (await getPage(uuid, locale)) !== null;
    } catch (err) {
      logger?.warn({ err, uuid, locale }, `${source} failed; page treated as absent`);
      return false;
    }
  };
}
