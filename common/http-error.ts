/** Stable codes for callers and log queries; messages may change, codes do not. */
export type HttpErrorCode = 'HTTP_STATUS' | 'HTTP_INVALID_JSON' | 'HTTP_NETWORK' | 'HTTP_TIMEOUT';

/** Which call failed, and the answer when one arrived. */
export interface HttpCallDetails<Method extends string> {
  method: Method;
  url: string;
  status?: number;
  statusText?: string;
  data?: unknown;
  cause?: unknown;
}

/**
 * An outbound HTTP call that failed, with what every caller on either side reads: which call, and
 * the answer when one arrived. The server's client (server/http/client.ts) and the islands' GraphQL
 * client (islands/client/http.ts) each add their own name and fields.
 */
export class HttpCallError<Code extends HttpErrorCode, Method extends string> extends Error {
  readonly code: Code;
  readonly method: Method;
  readonly url: string;
  /** Set when a response arrived (HTTP_STATUS, HTTP_INVALID_JSON). */
  readonly status: number | undefined;
  readonly statusText: string | undefined;
  /** HTTP_STATUS only: the error body, parsed when it is JSON (a GraphQL error list, say), else its text. */
  readonly data: unknown;
  constructor(code: Code, message: string, details: HttpCallDetails<Method>) {
    super(message, { cause: details.cause });
    this.code = code;
    this.method = details.method;
    this.url = details.url;
    this.status = details.status;
    this.statusText = details.statusText;
    this.data = details.data;
  }
}
