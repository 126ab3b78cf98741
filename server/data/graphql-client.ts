import { createHttpClient, type HttpClient, type HttpClientOptions } from '../http/client.ts';

/**
 * GraphQL over HTTP from Node: a POST to the configured endpoint through the
 * site's generic HTTP client, so it shares that client's rules. A POST carries a body, so it is
 * never retried; a status from 400 to 599 is an HttpError naming method, URL, status and status
 * text. Used by whatever on the server talks to the backend (the e2e test's price trigger, the
 * subscription bench, SSR against GRAPHQL_URL); islands have their own fetch-based client.
 */

export interface GraphQLRequest {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

/** Error policy "all": data and errors both come back; the caller decides. */
export interface GraphQLResponse<T> {
  data?: T | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[];
}

export interface GraphQLClient {
  request<T>(request: GraphQLRequest, options?: { token?: string; signal?: AbortSignal }): Promise<GraphQLResponse<T>>;
  close(): Promise<void>;
}

export function createGraphQLClient(
  options: { url: string; token?: string } & Pick<HttpClientOptions, 'timeouts' | 'dispatcher'>,
): GraphQLClient {
  const endpoint = new URL(options.url);
  const http: HttpClient = createHttpClient({
    baseUrl: endpoint.origin,
    headers: { accept: 'application/graphql-response+json, application/json' },
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
  });
  return {
    request(request, init = {}) {
      const token = init.token ?? options.token;
      return http.request('POST', `${endpoint.pathname}${endpoint.search}`, {
        body: request,
        ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
        ...(init.signal ? { signal: init.signal } : {}),
      });
    },
    close: () => http.close(),
  };
}
