import type { ApplicationConfiguration, PageEntry, TemplateEntry } from '../../common/content.ts';
import { problemText } from '../errors.ts';
import { createHttpClient, type HttpClient, HttpError, type HttpTimeouts, type QueryValue } from '../http/client.ts';
import { ContentChanges } from './changes.ts';
import {
  APP_CONFIG_TYPE,
  type ContentstackRegion,
  contentstackHosts,
  entriesOf,
  entryOf,
  entryPath,
  includedTemplate,
  isMissingEntry,
  LIST_LIMIT,
  listPath,
  PAGE_TYPE,
  pageQueryPath,
  stackLocale,
} from './contentstack-api.ts';
import { isValidKey, isValidPreviewHash } from './paths.ts';
import { createReadCache, deepFreeze, type Read } from './read-cache.ts';
import { ComponentSchemas, firstProblem } from './schemas.ts';
import { ContentError, type ContentService, hasPageBy } from './service.ts';
import { readApplicationConfiguration, readPage, readTemplate, type WarnContent } from './tolerant.ts';

/**
 * The ContentService over a Contentstack stack: the documented Content Delivery API for published
 * content, the Preview API for the draft behind a live-preview hash. Entries come back in the
 * shapes the embedded store keeps, read by the same tolerant readers, so the page cannot tell the
 * sources apart.
 */

export interface ContentstackOptions {
  apiKey: string;
  deliveryToken: string;
  environment: string;
  region?: ContentstackRegion;
  /** Delivery API base URL instead of the region's (`http://127.0.0.1:PORT` in tests). */
  host?: string;
  /** Preview API base URL instead of the region's. */
  previewHost?: string;
  branch?: string;
  /** Without it, live-preview requests show published content (and say so in the log, once). */
  previewToken?: string;
  cacheTtlMs: number;
  staleMs: number;
  maxEntries: number;
  logger?: { warn(details: object, message: string): void };
  timeouts?: HttpTimeouts;
  /** The clock cache lifetimes are measured on (milliseconds); tests move their own. */
  now?: () => number;
}

export interface ContentstackContentService extends ContentService {
  close(): Promise<void>;
}

const EMPTY_APP_CONFIG: ApplicationConfiguration = { globals: { dhfIsEnabled: false }, navigation: {} };
/** The longest a Retry-After is obeyed: a wrong header must not keep the stack away for long. */
const MAX_COOL_DOWN_MS = 60_000;
/** How long a draft template brought along by a preview page read waits for its getEntry. */
const HANDOFF_MS = 10_000;

interface PageRead {
  page: PageEntry | null;
  template: TemplateEntry | null;
  /** Whether the template came resolved with the page; when not, getEntry reads it by itself. */
  included: boolean;
}

export function createContentstackService(options: ContentstackOptions): ContentstackContentService {
  const { logger, previewToken } = options;
  const hosts = contentstackHosts(options);
  const branch: Record<string, string> = options.branch ? { branch: options.branch } : {};
  const delivery = createHttpClient({
    baseUrl: hosts.delivery,
    headers: { api_key: options.apiKey, access_token: options.deliveryToken, ...branch },
    timeouts: options.timeouts,
  });
  const preview = previewToken
    ? createHttpClient({
        baseUrl: hosts.preview,
        headers: { api_key: options.apiKey, preview_token: previewToken, ...branch },
        timeouts: options.timeouts,
      })
    : undefined;
  const warn: WarnContent = (warning) => logger?.warn(warning, 'Content field unusable; fallback used');
  const cache = createReadCache(options);
  const changes = new ContentChanges(logger);
  changes.subscribe(() => cache.clear());
  /**
   * A preview page read includes its draft template; the renderer asks for that template right
   * after. Handed over once, never served to a later request: the same hash shows newer drafts.
   */
  const handoff = new Map<string, { template: TemplateEntry | null; expires: number }>();
  let warnedNoPreviewToken = false;
  /**
   * After a 429 with Retry-After, that API is not called again until then: reads fail at once (the
   * cache serves the last good value) instead of adding to the load the stack is refusing.
   */
  const coolUntil = new Map<HttpClient, number>();

  /** The valid hash of a draft read, or undefined for a published one. */
  function draftHash(hash: string | undefined): string | undefined {
    if (hash === undefined || !isValidPreviewHash(hash)) return undefined;
    if (preview) return hash;
    if (!warnedNoPreviewToken) {
      warnedNoPreviewToken = true;
      logger?.warn({}, 'Live preview without CONTENTSTACK_PREVIEW_TOKEN: previews show published content');
    }
    return undefined;
  }

  function stackRead(
    path: string,
    locale: string,
    extra: Record<string, QueryValue>,
    hash: string | undefined,
    parse: (body: unknown, where: string) => unknown,
    missingIsNull = false,
  ): Read {
    const client: HttpClient = hash !== undefined && preview ? preview : delivery;
    const query = { environment: options.environment, locale: stackLocale(locale), ...extra };
    const where = client.url(path, query);
    const headers = hash !== undefined ? { live_preview: hash } : undefined;
    return {
      key: hash !== undefined ? `${hash} ${where}` : where,
      where,
      load: async () => {
        const until = coolUntil.get(client) ?? 0;
        if (until > Date.now()) {
          const at = new Date(until).toISOString();
          throw new ContentError('CONTENT_UPSTREAM', `Contentstack asked to wait until ${at} (Retry-After)`, where);
        }
        let body: unknown;
        try {
          body = await client.request<unknown>('GET', path, { query, headers });
        } catch (err) {
          if (missingIsNull && err instanceof HttpError && isMissingEntry(err.status, err.data)) return { value: null };
          if (err instanceof HttpError && err.status === 429 && err.retryAfterMs)
            coolUntil.set(client, Date.now() + Math.min(err.retryAfterMs, MAX_COOL_DOWN_MS));
          const reason = err instanceof Error ? err.message : String(err);
          throw new ContentError('CONTENT_UPSTREAM', `Contentstack read failed: ${reason}`, where, { cause: err });
        }
        return { value: deepFreeze(parse(body, where)) };
      },
    };
  }

  const templateKey = (type: string, uid: string, locale: string) => `${type} ${uid} ${locale}`;

  async function getPage(uuid: string, locale: string, hash?: string): Promise<PageEntry | null> {
    if (!isValidKey({ kind: 'page', uuid, locale })) return null;
    const draft = draftHash(hash);
    const parse = (body: unknown, where: string): PageRead => {
      const list = entriesOf(body);
      if (!list) throw new ContentError('CONTENT_UPSTREAM', 'Contentstack answer lacks an entries list', where);
      if (list.entries.length === 0) return { page: null, template: null, included: false };
      const page = readPage(list.entries[0], { uuid, locale }, where, warn);
      const included = includedTemplate(list.entries[0]);
      const ref = page.template[0];
      if (!included || !ref) return { page, template: null, included: false };
      return { page, template: readTemplate(included, `${where} $.template[0]`, warn), included: true };
    };
    const query = { query: JSON.stringify({ uuid }), limit: 1 };
    const read = stackRead(pageQueryPath(), locale, query, draft, parse);
    const result = (await (draft === undefined ? cache.published(read) : cache.uncached(read))) as PageRead;
    const ref = result.page?.template[0];
    if (ref && result.included) {
      const key = templateKey(ref._content_type_uid, ref.uid, locale);
      if (draft === undefined) cache.put(key, result.template);
      else {
        // Pruned here too: preview page reads through the content API are never followed by a getEntry.
        pruneHandoff();
        handoff.set(`${draft} ${key}`, { template: result.template, expires: Date.now() + HANDOFF_MS });
      }
    }
    return result.page;
  }

  async function getEntry<T = Record<string, unknown>>(
    type: string,
    uid: string,
    locale: string,
    hash?: string,
  ): Promise<T | null> {
    if (!isValidKey({ kind: 'entry', contentType: type, uid, locale })) return null;
    const draft = draftHash(hash);
    if (draft !== undefined) {
      const handed = takeHandoff(`${draft} ${templateKey(type, uid, locale)}`);
      if (handed) return handed.template as T | null;
    }
    const parse = (body: unknown, where: string) => {
      const entry = entryOf(body);
      if (!entry) throw new ContentError('CONTENT_UPSTREAM', 'Contentstack answer lacks an entry object', where);
      if (type.endsWith('_template')) return readTemplate(entry, where, warn);
      // Read alone, an entry does not name its content type; included in another, it does.
      const component = { ...entry, _content_type_uid: type };
      const problem = ComponentSchemas[type] ? firstProblem(ComponentSchemas[type], component) : null;
      if (problem) throw new ContentError('CONTENT_INVALID', `Invalid content: ${problemText(problem)}`, where);
      return component;
    };
    const read = stackRead(entryPath(type, uid), locale, {}, draft, parse, true);
    if (draft !== undefined) return (await cache.uncached(read)) as T | null;
    // A template brought along by its page's read is under its own key: no second request.
    return (await cache.published({
      ...read,
      key: type.endsWith('_template') ? templateKey(type, uid, locale) : read.key,
    })) as T | null;
  }

  function pruneHandoff() {
    const now = Date.now();
    for (const [k, v] of handoff) if (v.expires < now) handoff.delete(k);
  }

  function takeHandoff(key: string) {
    pruneHandoff();
    const handed = handoff.get(key);
    handoff.delete(key);
    return handed;
  }

  async function getApplicationConfiguration(_host: string, locale: string): Promise<ApplicationConfiguration> {
    if (!isValidKey({ kind: 'appConfig', locale })) {
      throw new RangeError(`Invalid locale for the application configuration: ${locale}`);
    }
    const parse = (body: unknown, where: string) => {
      const list = entriesOf(body);
      if (!list) throw new ContentError('CONTENT_UPSTREAM', 'Contentstack answer lacks an entries list', where);
      // Like the store: a locale without its own configuration gets the defaults.
      return list.entries.length === 0 ? EMPTY_APP_CONFIG : readApplicationConfiguration(list.entries[0], where, warn);
    };
    // One entry per locale; a locale the stack falls back for shows its fallback's configuration.
    const query = { include_fallback: true, limit: 1 };
    return (await cache.published(
      stackRead(listPath(APP_CONFIG_TYPE), locale, query, undefined, parse),
    )) as ApplicationConfiguration;
  }

  const hasPage = hasPageBy(getPage, logger, 'Contentstack read');

  async function listPages(locale: string): Promise<string[]> {
    if (!isValidKey({ kind: 'appConfig', locale })) return [];
    const ids = new Set<string>();
    for (let skip = 0; ; skip += LIST_LIMIT) {
      const parse = (body: unknown, where: string) => {
        const list = entriesOf(body);
        if (!list) throw new ContentError('CONTENT_UPSTREAM', 'Contentstack answer lacks an entries list', where);
        return list;
      };
      const query = { 'only[BASE][]': 'uuid', skip, limit: LIST_LIMIT, include_count: true };
      const list = (await cache.published(stackRead(listPath(PAGE_TYPE), locale, query, undefined, parse))) as {
        entries: unknown[];
        count?: number;
      };
      for (const entry of list.entries) {
        const uuid = (entry as { uuid?: unknown }).uuid;
        if (typeof uuid === 'string' && /^\d{1,10}$/.test(uuid)) ids.add(uuid);
      }
      if (list.entries.length < LIST_LIMIT || skip + LIST_LIMIT >= (list.count ?? Number.POSITIVE_INFINITY)) break;
    }
    return [...ids].sort((a, b) => Number(a) - Number(b));
  }

  return {
    getPage,
    getEntry,
    getApplicationConfiguration,
    hasPage,
    listPages,
    changes,
    locate: (key) =>
      key.kind === 'page'
        ? delivery.url(pageQueryPath(), { locale: stackLocale(key.locale), query: JSON.stringify({ uuid: key.uuid }) })
        : key.kind === 'entry'
          ? delivery.url(entryPath(key.contentType, key.uid), { locale: stackLocale(key.locale) })
          : delivery.url(listPath(APP_CONFIG_TYPE), { locale: stackLocale(key.locale) }),
    close: async () => {
      await Promise.all([delivery.close(), preview?.close()]);
    },
  };
}
