import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { ApplicationConfiguration } from '../../common/content.ts';
import { HttpError } from '../http/client.ts';
import type { ContentService } from './service.ts';

/**
 * Rules of the application-configuration read over HTTP: the visitor's cookie goes along (so the
 * answer may depend on it), the cache never hands one visitor's answer to another, a failed read
 * is logged with the upstream's status and headers, and the last good answer stands in for it.
 */

/**
 * The cache scope of a read: visitors without a cookie share one answer per host and language;
 * a cookie gets its own, keyed by a digest so the cookie itself never sits in a cache key or log.
 */
export function appConfigScope(host: string, cookie: string | undefined): string {
  if (!cookie) return `${host} -`;
  return `${host} ${createHash('sha256').update(cookie).digest('base64url').slice(0, 22)}`;
}

/**
 * The cookies of a Cookie header that are named in `names`, sorted by name, as one header value;
 * undefined when none is there. A visitor's other cookies (analytics, a random one an attacker
 * varies) never reach the upstream, a cache key or a decision to make a page private.
 */
export function pickCookies(header: string | undefined, names: readonly string[]): string | undefined {
  if (!header || names.length === 0) return undefined;
  const picked: string[] = [];
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    const name = (at === -1 ? pair : pair.slice(0, at)).trim();
    if (names.includes(name)) picked.push(`${name}=${at === -1 ? '' : pair.slice(at + 1).trim()}`);
  }
  return picked.length === 0 ? undefined : picked.sort().join('; ');
}

/** The scope whose answers any visitor of the host may be shown. */
export function sharedAppConfigScope(host: string): string {
  return appConfigScope(host, undefined);
}

/**
 * Whether an answer says it depends on the cookie it was asked with: `Vary` names Cookie (or `*`),
 * or `Cache-Control` keeps it private. Only such answers make a page personal; an answer that says
 * nothing is the same for every visitor, as HTTP caches read it too.
 */
export function variesByCookie(headers: Record<string, string | string[] | undefined>): boolean {
  const list = (name: string) =>
    [headers[name] ?? []]
      .flat()
      .flatMap((value) => value.split(','))
      .map((token) => token.trim().toLowerCase().split('=')[0]);
  const vary = list('vary');
  const cacheControl = list('cache-control');
  return (
    vary.includes('cookie') ||
    vary.includes('*') ||
    cacheControl.includes('private') ||
    cacheControl.includes('no-store')
  );
}

/**
 * Whether a page for this request may come from, or go into, a cache keyed by URL (the HTML cache,
 * the assembled-page memo): always, unless the visitor sends a cookie that matters to the
 * configuration and the host's configuration has said it depends on it.
 */
export function sharedByUrl(
  content: Pick<ContentService, 'appConfigVaries' | 'appConfigCookie'>,
  host: string,
  locale: string,
  cookie: string | undefined,
): boolean {
  return content.appConfigCookie?.(cookie) === undefined || content.appConfigVaries?.(host, locale) !== true;
}

export interface ContextFailure {
  message: string;
  details: {
    where: string;
    status?: number;
    statusText?: string;
    headers?: Record<string, string | string[] | undefined>;
    reason?: string;
  };
}

/**
 * The log line of a failed read: `Fetching {url} Context failed: {status} {statusText}` with the
 * response headers beside it, or the transport failure when no response came.
 */
export function contextFailure(where: string, error: unknown): ContextFailure {
  const http = findHttpError(error);
  if (http?.status !== undefined) {
    const statusText = http.statusText ?? '';
    return {
      message: `Fetching ${where} Context failed: ${http.status} ${statusText}`.trimEnd(),
      details: { where, status: http.status, statusText, headers: http.headers ?? {} },
    };
  }
  const reason = error instanceof Error ? error.message : String(error);
  return { message: `Fetching ${where} Context failed: ${reason}`, details: { where, reason } };
}

function findHttpError(error: unknown): HttpError | undefined {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof HttpError) return e;
  }
  return undefined;
}

/**
 * The last good answer per scope and language. Unlike the read cache it survives content changes
 * and TTLs: it is only ever shown when a fresh read fails. A visitor's own answer comes first;
 * failing that, the shared one, never another visitor's.
 */
export class LastGoodAppConfigs {
  /** Per host and language: bounded by the sites config, so kept apart from the visitors' answers. */
  #shared = new Map<string, ApplicationConfiguration>();
  #personal: LRUCache<string, ApplicationConfiguration>;

  constructor(maxEntries: number) {
    this.#personal = new LRUCache({ max: maxEntries });
  }

  remember(host: string, scope: string, locale: string, config: ApplicationConfiguration): void {
    if (scope === sharedAppConfigScope(host)) this.#shared.set(`${host} ${locale}`, config);
    else this.#personal.set(`${scope} ${locale}`, config);
  }

  recall(host: string, scope: string, locale: string): ApplicationConfiguration | undefined {
    return this.#personal.get(`${scope} ${locale}`) ?? this.#shared.get(`${host} ${locale}`);
  }
}
