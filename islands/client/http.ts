import { type HttpCallDetails, HttpCallError, type HttpErrorCode } from '../../common/http-error.ts';

/**
 * GraphQL over HTTP POST from the browser. The same rules as the server's generic
 * client (server/http/client.ts, which runs on undici and cannot ship to a browser): a request with
 * a body is never retried, and a status from 400 to 599 is an error naming method, URL, status and
 * status text. Default options are the spec's: no cache, error policy all.
 */

export interface GraphQLRequest<V = Record<string, unknown>> {
  query: string;
  variables?: V;
  operationName?: string;
}

export interface GraphQLFormattedError {
  message: string;
  path?: (string | number)[];
  extensions?: Record<string, unknown>;
}

/** Error policy "all": partial data and errors both come back. */
export interface GraphQLResult<T> {
  data?: T | null;
  errors?: GraphQLFormattedError[];
}

export type GraphQLHttpErrorCode = Exclude<HttpErrorCode, 'HTTP_TIMEOUT'>;

export class GraphQLHttpError extends HttpCallError<GraphQLHttpErrorCode, 'POST'> {
  constructor(code: GraphQLHttpErrorCode, message: string, details: Omit<HttpCallDetails<'POST'>, 'method'>) {
    super(code, message, { ...details, method: 'POST' });
    this.name = 'GraphQLHttpError';
  }
}

export async function postGraphQL<T>(
  url: string,
  request: GraphQLRequest<object>,
  init: { headers?: Record<string, string>; signal?: AbortSignal; fetch?: typeof fetch } = {},
): Promise<GraphQLResult<T>> {
  const doFetch = init.fetch ?? fetch;
  let response: Response;
  let text: string;
  try {
    response = await doFetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json, application/json',
        ...init.headers,
      },
      body: JSON.stringify(request),
      // "no-cache" policy: every query goes to the network; nothing is served from the HTTP cache.
      cache: 'no-store',
      credentials: 'same-origin',
      ...(init.signal ? { signal: init.signal } : {}),
    });
    text = await response.text();
  } catch (error) {
    // The caller's abort passes through as it is: it is not a failure of the backend.
    if (init.signal?.aborted) throw error;
    throw new GraphQLHttpError('HTTP_NETWORK', `POST ${url} failed: ${(error as Error).message}`, {
      url,
      cause: error,
    });
  }
  const { status, statusText } = response;
  if (status >= 400) {
    throw new GraphQLHttpError('HTTP_STATUS', `POST ${url} ${status} ${statusText}`.trimEnd(), {
      url,
      status,
      statusText,
      data: parseOr(text, text),
    });
  }
  const body = parseOr<GraphQLResult<T> | undefined>(text, undefined);
  if (!body || typeof body !== 'object') {
    throw new GraphQLHttpError('HTTP_INVALID_JSON', `POST ${url} ${status}: response is not a GraphQL result`, {
      url,
      status,
      statusText,
    });
  }
  return body;
}

function parseOr<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
