import type { ApplicationConfiguration, PageEntry } from '../../common/content.ts';
import { isRecord } from '../../common/is-record.ts';
import { type Problem, problemText } from '../errors.ts';
import { createHttpClient, type HttpClient, HttpError, type HttpTimeouts, type QueryValue } from '../http/client.ts';
import { appConfigScope, contextFailure, LastGoodAppConfigs, pickCookies, variesByCookie } from './app-config.ts';
import { ContentChanges } from './changes.ts';
import { isValidKey, isValidPreviewHash } from './paths.ts';
import { createReadCache, deepFreeze, type Read } from './read-cache.ts';
import { ComponentSchemas, firstProblem } from './schemas.ts';
import { ContentError, type ContentService, hasPageBy } from './service.ts';
import { readApplicationConfiguration, readPage, readTemplate, type WarnContent } from './tolerant.ts';

/**
 * The ContentService over HTTP: the same API the embedded store serves, on
 * another server, cached as read-cache.ts describes.
 */

export interface UpstreamLogger {
  warn(details: object, message: string): void;
  error?(details: object, message: string): void;
}

export interface UpstreamContentOptions {
  /** Serves `/cs/api/{contentServiceName}/…`. */
  contentServiceUrl: string;
  /** Serves `/_applicationConfiguration`. */
  appConfigUrl: string;
  /** Names of the visitor's cookies the application configuration may depend on; none by default. */
  appConfigCookies?: readonly string[];
  contentServiceName?: string;
  /** How long a published read is fresh. */
  cacheTtlMs: number;
  /** How long past its TTL a read is still served at once while it is refreshed in the background. */
  staleMs: number;
  maxEntries: number;
  logger?: UpstreamLogger;
  timeouts?: HttpTimeouts;
  /** The clock cache lifetimes are measured on (milliseconds); tests move their own. */
  now?: () => number;
}

export interface UpstreamContentService extends ContentService {
  appConfigVaries(host: string, locale: string): boolean;
  /** Closes the keep-alive connections. */
  close(): Promise<void>;
}

const SERVICE_NAME = /^[A-Za-z0-9_-]+$/;
/** A host name or IP literal with an optional port: nothing that could break out of the header. */
const HOST = /^[A-Za-z0-9._:[\]-]{1,255}$/;

export function createUpstreamContentService(options: UpstreamContentOptions): UpstreamContentService {
  const { contentServiceName = 'contentstack', cacheTtlMs, staleMs, maxEntries, logger, timeouts, now } = options;
  if (!SERVICE_NAME.test(contentServiceName)) {
    throw new TypeError(`Invalid content service name: ${contentServiceName}`);
  }
  const api = `/cs/api/${contentServiceName}`;
  const warn: WarnContent = (warning) => logger?.warn(warning, 'Content field unusable; fallback used');
  const content = createHttpClient({ baseUrl: options.contentServiceUrl, timeouts });
  const appConfig = createHttpClient({ baseUrl: options.appConfigUrl, timeouts });

  const cache = createReadCache({ cacheTtlMs, staleMs, maxEntries, logger, now });
  const { published, uncached } = cache;
  const lastGoodConfigs = new LastGoodAppConfigs(maxEntries);
  /** `{host} {locale}` whose answers said they vary by cookie; bounded by the sites config. */
  const varyingConfigs = new Set<string>();
  const changes = new ContentChanges(logger);
  // Everything goes, even on a change that names entries: changes are rare, and a miss costs one read.
  changes.subscribe(() => cache.clear());

  function upstreamRead(
    client: HttpClient,
    path: string,
    query: Record<string, QueryValue>,
    parse: (body: unknown, where: string) => unknown,
    extra: {
      headers?: Record<string, string>;
      onHeaders?: (headers: Record<string, string | string[] | undefined>) => void;
      keyPrefix?: string;
      notFoundIsNull: boolean;
    },
  ): Read {
    const where = client.url(path, query);
    return {
      key: `${extra.keyPrefix ?? ''}${where}`,
      where,
      load: async () => {
        let body: unknown;
        try {
          body = await client.request<unknown>('GET', path, {
            query,
            headers: extra.headers,
            onHeaders: extra.onHeaders,
          });
        } catch (err) {
          if (extra.notFoundIsNull && err instanceof HttpError && err.status === 404) return { value: null };
          const reason = err instanceof Error ? err.message : String(err);
          throw new ContentError('CONTENT_UPSTREAM', `Content upstream failed: ${reason}`, where, { cause: err });
        }
        // Frozen because one object is shared by every caller until it leaves the cache.
        return { value: deepFreeze(parse(body, where)) };
      },
    };
  }

  /** The store's rule: a hash that cannot name a draft overlay reads published content. */
  const previewOf = (hash: string | undefined) => (hash !== undefined && isValidPreviewHash(hash) ? hash : undefined);

  async function getPage(uuid: string, locale: string, preview?: string): Promise<PageEntry | null> {
    // Input that cannot name a page does not exist (the store's shapes, paths.ts); it never reaches a URL.
    if (!isValidKey({ kind: 'page', uuid, locale })) return null;
    const hash = previewOf(preview);
    const query = { language: locale, live_preview: hash };
    // An unknown page answers an empty list; a 404 here means a wrong URL or service name, so it is an error.
    const parse = (body: unknown, where: string) => parsePage(body, where, { uuid, locale }, warn);
    const page = upstreamRead(content, `${api}/pages/${encodeURIComponent(uuid)}`, query, parse, {
      notFoundIsNull: false,
    });
    return (await (hash === undefined ? published(page) : uncached(page))) as PageEntry | null;
  }

  async function getEntry<T = Record<string, unknown>>(
    type: string,
    uid: string,
    locale: string,
    preview?: string,
  ): Promise<T | null> {
    if (!isValidKey({ kind: 'entry', contentType: type, uid, locale })) return null;
    const hash = previewOf(preview);
    const query = { language: locale, live_preview: hash };
    const path = `${api}/${encodeURIComponent(type)}/${encodeURIComponent(uid)}`;
    const entry = upstreamRead(content, path, query, (body, where) => parseEntry(type, body, where, warn), {
      notFoundIsNull: true,
    });
    return (await (hash === undefined ? published(entry) : uncached(entry))) as T | null;
  }

  async function getApplicationConfiguration(
    host: string,
    locale: string,
    cookie?: string,
  ): Promise<ApplicationConfiguration> {
    // Both come from the storefront configuration, so a bad value is our bug, not a visitor's 404.
    if (!HOST.test(host)) throw new RangeError(`Invalid host for the application configuration: ${host}`);
    if (!isValidKey({ kind: 'appConfig', locale })) {
      throw new RangeError(`Invalid locale for the application configuration: ${locale}`);
    }
    // Only the cookies that matter go along; any other is the same as none.
    cookie = appConfigCookie(cookie);
    let personal = false;
    const parse = (body: unknown, where: string): ApplicationConfiguration => {
      const config = readApplicationConfiguration(body, where, warn);
      return personal ? { ...config, personal: true } : config;
    };
    // The answer depends on the forwarded host and may depend on the cookie, which the URL does not show.
    const scope = appConfigScope(host, cookie);
    const read = upstreamRead(appConfig, '/_applicationConfiguration', { language: locale }, parse, {
      headers: { 'x-forwarded-host': host, ...(cookie ? { cookie } : {}) },
      onHeaders: (headers) => {
        const varies = variesByCookie(headers);
        if (varies) varyingConfigs.add(`${host} ${locale}`);
        else varyingConfigs.delete(`${host} ${locale}`);
        personal = varies && cookie !== undefined && cookie !== '';
      },
      keyPrefix: `${scope} `,
      notFoundIsNull: false,
    });
    const load = read.load;
    read.load = () =>
      load().catch((err: unknown) => {
        const failure = contextFailure(read.where, err);
        (logger?.error ?? logger?.warn)?.call(logger, { ...failure.details, host, locale }, failure.message);
        throw err;
      });
    try {
      const config = (await published(read)) as ApplicationConfiguration;
      lastGoodConfigs.remember(host, scope, locale, config);
      return config;
    } catch (err) {
      // The page keeps its header from the last good answer rather than losing it to an outage.
      const kept = lastGoodConfigs.recall(host, scope, locale);
      if (kept) return kept;
      throw err;
    }
  }

  const hasPage = hasPageBy(getPage, logger, 'Content upstream');

  const cookieNames = options.appConfigCookies ?? [];
  function appConfigCookie(cookie: string | undefined): string | undefined {
    return pickCookies(cookie, cookieNames);
  }

  return {
    getPage,
    getEntry,
    getApplicationConfiguration,
    ...(cookieNames.length > 0 ? { appConfigCookie } : {}),
    appConfigVaries: (host, locale) => varyingConfigs.has(`${host} ${locale}`),
    hasPage,
    changes,
    locate: (key) =>
      key.kind === 'page'
        ? content.url(`${api}/pages/${encodeURIComponent(key.uuid)}`, { language: key.locale })
        : key.kind === 'entry'
          ? content.url(`${api}/${encodeURIComponent(key.contentType)}/${encodeURIComponent(key.uid)}`, {
              language: key.locale,
            })
          : appConfig.url('/_applicationConfiguration', { language: key.locale }),
    close: async () => {
      await Promise.all([content.close(), appConfig.close()]);
    },
  };
}

function parsePage(body: unknown, where: string, key: { uuid: string; locale: string }, warn: WarnContent): unknown {
  if (!isRecord(body) || !Array.isArray(body.entries)) throw shapeError('an entries list', where);
  if (body.entries.length === 0) return null;
  // The same tolerant reading as the embedded store (tolerant.ts).
  return readPage(body.entries[0], key, where, warn);
}

function parseEntry(type: string, body: unknown, where: string, warn: WarnContent): unknown {
  if (!isRecord(body) || !isRecord(body.entry)) throw shapeError('an entry object', where);
  // The same reading as the embedded store (store.ts getEntry).
  if (type.endsWith('_template')) return readTemplate(body.entry, where, warn);
  const schema = ComponentSchemas[type];
  assertValid(schema ? firstProblem(schema, body.entry) : null, where);
  return body.entry;
}

/** The answer's envelope is wrong: not the content API at all, an upstream fault. */
function shapeError(expected: string, where: string): ContentError {
  return new ContentError('CONTENT_UPSTREAM', `Content upstream answer lacks ${expected}`, where);
}

/** The envelope is right but the content is malformed: reported like a malformed store file. */
function assertValid(problem: Problem | null, where: string): void {
  if (problem) {
    throw new ContentError('CONTENT_INVALID', `Invalid content: ${problemText(problem)}`, `${where} ${problem.path}`);
  }
}
