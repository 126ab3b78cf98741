import { STATUS_CODES } from 'node:http';
import sjson from 'secure-json-parse';
import { type Dispatcher, errors, Pool } from 'undici';
import { type HttpCallDetails, HttpCallError, type HttpErrorCode } from '../../common/http-error.ts';

/**
 * The generic outbound HTTP client: base URL, JSON in and out, one
 * retry for methods without a body, and errors that say which call failed and how.
 */

export type HttpMethod = 'GET' | 'HEAD' | 'OPTIONS' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export class HttpError extends HttpCallError<HttpErrorCode, HttpMethod> {
  /** Set when a response arrived: its headers, for the log line of a failed call. */
  readonly headers: Record<string, string | string[] | undefined> | undefined;
  /** HTTP_STATUS only: how long the server asked callers to wait (its Retry-After), when it said. */
  readonly retryAfterMs: number | undefined;
  constructor(
    code: HttpErrorCode,
    message: string,
    details: HttpCallDetails<HttpMethod> & {
      headers?: Record<string, string | string[] | undefined>;
      retryAfterMs?: number;
    },
  ) {
    super(code, message, details);
    this.name = 'HttpError';
    this.headers = details.headers;
    this.retryAfterMs = details.retryAfterMs;
  }
}

export interface HttpTimeouts {
  /** TCP (and TLS) connect. Only applies to the client's own pool, not to a given dispatcher. */
  connectMs?: number;
  /** From sending the request to receiving the complete response headers. */
  headersMs?: number;
  /** Longest silence between two chunks of the response body. */
  bodyMs?: number;
}

export interface HttpClientOptions {
  /** Origin plus an optional path prefix, e.g. `http://content:8080/api`. */
  baseUrl: string;
  /** Sent with every request; per-request headers override them. */
  headers?: Record<string, string>;
  timeouts?: HttpTimeouts;
  /** A shared undici dispatcher (Agent, MockAgent); by default the client owns a keep-alive Pool. */
  dispatcher?: Dispatcher;
}

export type QueryValue = string | number | boolean | undefined;

export interface HttpRequestOptions {
  /** Undefined values are left out. */
  query?: Record<string, QueryValue>;
  /** Serialised as JSON; only for POST, PUT, PATCH and DELETE. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Aborting rejects with the abort reason as is, never retried nor wrapped. */
  signal?: AbortSignal;
  /** Told the headers of the successful response (caching rules such as Vary live there). */
  onHeaders?: (headers: Record<string, string | string[] | undefined>) => void;
}

export interface HttpClient {
  /** Resolves the parsed JSON body; `undefined` when the body is empty (HEAD, 204). */
  request<T>(method: HttpMethod, path: string, options?: HttpRequestOptions): Promise<T>;
  /** The absolute URL a request to `path` with `query` goes to (for log lines). */
  url(path: string, query?: Record<string, QueryValue>): string;
  /** Closes the client's own pool; a given dispatcher is left to its owner. */
  close(): Promise<void>;
}

const DEFAULT_TIMEOUTS = { connectMs: 2_000, headersMs: 5_000, bodyMs: 5_000 } satisfies Required<HttpTimeouts>;
const RETRY_STATUSES = new Set([408, 409, 425, 429, 500, 502, 503, 504]);
const BODYLESS_METHODS = new Set<HttpMethod>(['GET', 'HEAD', 'OPTIONS']);
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const base = new URL(options.baseUrl);
  const baseHref = `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const defaultHeaders = { accept: 'application/json', ...lowerKeys(options.headers) };
  const dispatcher =
    options.dispatcher ??
    new Pool(base.origin, {
      connectTimeout: timeouts.connectMs,
      headersTimeout: timeouts.headersMs,
      bodyTimeout: timeouts.bodyMs,
    });

  function url(path: string, query?: Record<string, QueryValue>): string {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) search.append(name, String(value));
    }
    const qs = search.toString();
    const joined = `${baseHref}${path.startsWith('/') ? '' : '/'}${path}`;
    return qs ? `${joined}${joined.includes('?') ? '&' : '?'}${qs}` : joined;
  }

  async function once<T>(method: HttpMethod, target: string, init: HttpRequestOptions): Promise<T> {
    const hasBody = init.body !== undefined;
    const headers: Record<string, string> = { ...defaultHeaders, ...lowerKeys(init.headers) };
    if (hasBody) headers['content-type'] ??= 'application/json';
    const parsed = new URL(target);
    const details = { method, url: target };
    let status: number;
    let statusText: string;
    let responseHeaders: Record<string, string | string[] | undefined>;
    let text: string;
    let retryAfter: string | string[] | undefined;
    try {
      const response = await dispatcher.request({
        origin: parsed.origin,
        path: `${parsed.pathname}${parsed.search}`,
        method,
        headers,
        body: hasBody ? JSON.stringify(init.body) : null,
        signal: init.signal,
        headersTimeout: timeouts.headersMs,
        bodyTimeout: timeouts.bodyMs,
      });
      status = response.statusCode;
      statusText = response.statusText || STATUS_CODES[status] || '';
      responseHeaders = response.headers;
      retryAfter = response.headers['retry-after'];
      // Read the body even for error statuses: it frees the socket for keep-alive and may explain the error.
      text = await response.body.text();
    } catch (err) {
      throw transportError(err, details, init.signal);
    }
    if (status >= 400) {
      throw new HttpError('HTTP_STATUS', `${method} ${target} ${status} ${statusText}`.trimEnd(), {
        ...details,
        status,
        statusText,
        headers: responseHeaders,
        data: parseOrText(text),
        retryAfterMs: retryAfterMs(retryAfter, Date.now()),
      });
    }
    init.onHeaders?.(responseHeaders);
    if (text === '') return undefined as T;
    try {
      // secure-json-parse refuses `__proto__` and `constructor.prototype` keys: answers never change a prototype.
      return sjson.parse(text) as T;
    } catch (err) {
      const message = `${method} ${target} ${status}: response body is not valid JSON (${(err as Error).message})`;
      throw new HttpError('HTTP_INVALID_JSON', message, {
        ...details,
        status,
        statusText,
        headers: responseHeaders,
        cause: err,
      });
    }
  }

  async function request<T>(method: HttpMethod, path: string, init: HttpRequestOptions = {}): Promise<T> {
    const bodyless = BODYLESS_METHODS.has(method);
    if (bodyless && init.body !== undefined) throw new TypeError(`${method} requests cannot carry a body`);
    const target = url(path, init.query);
    try {
      return await once<T>(method, target, init);
    } catch (err) {
      // A method with a body may have changed something upstream, so only bodyless methods are retried.
      if (!bodyless || !isRetryable(err) || init.signal?.aborted) throw err;
      return once<T>(method, target, init);
    }
  }

  return {
    request,
    url,
    close: async () => {
      if (!options.dispatcher) await dispatcher.close();
    },
  };
}

function isRetryable(err: unknown): boolean {
  if (!(err instanceof HttpError)) return false;
  if (err.code === 'HTTP_STATUS') return RETRY_STATUSES.has(err.status ?? 0);
  return err.code === 'HTTP_NETWORK' || err.code === 'HTTP_TIMEOUT';
}

/** Wraps a failure below HTTP; the caller's own abort and misuse (bad arguments) pass through untouched. */
function transportError(err: unknown, details: { method: HttpMethod; url: string }, signal?: AbortSignal): unknown {
  if (signal?.aborted || err instanceof errors.InvalidArgumentError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  const reason = err instanceof Error ? err.message : String(err);
  if (typeof code === 'string' && TIMEOUT_CODES.has(code)) {
    return new HttpError('HTTP_TIMEOUT', `${details.method} ${details.url} timed out: ${reason}`, {
      ...details,
      cause: err,
    });
  }
  return new HttpError('HTTP_NETWORK', `${details.method} ${details.url} failed: ${reason}`, {
    ...details,
    cause: err,
  });
}

/** Retry-After in ms: delay-seconds or an HTTP date (RFC 9110); undefined when absent or unreadable. */
function retryAfterMs(value: string | string[] | undefined, now: number): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function parseOrText(text: string): unknown {
  try {
    return sjson.parse(text);
  } catch {
    return text;
  }
}

function lowerKeys(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) out[name.toLowerCase()] = value;
  return out;
}
