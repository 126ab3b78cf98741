/**
 * The catalogue of errors the site can show, answer or log. Each has a stable code and one
 * sentence, written here and nowhere else; messages are worded as the site has always shown them
 * (visitors, editors' tools and monitors match on them). Never reuse a retired code.
 * docs/errors.md lists every code; a test keeps that list and this file in step.
 */

/** A problem found in a value an editor sent: where (`$.path.to.field`) and what. */
export interface Problem {
  path: string;
  message: string;
}

/** `$.path: message`, the way a problem is shown. */
export const problemText = (problem: Problem): string => `${problem.path}: ${problem.message}`;

/** An error meant for the visitor or API client: a status and a message that is safe to show (escaped on output). */
export class SiteError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  /** Answered beside the sentence by the JSON API (a field's `path`). */
  readonly details: Readonly<Record<string, unknown>>;
  constructor(code: ErrorCode, status: number, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'SiteError';
    this.code = code;
    this.status = status;
    this.details = details;
  }
}

const error =
  <A extends unknown[]>(code: ErrorCode, status: number, message: (...args: A) => string) =>
  (...args: A) =>
    new SiteError(code, status, message(...args));

/** Errors of the storefront pages (the visitor sees them on the error page). */
export const siteErrors = {
  forceHostRequired: error(
    'FORCE_HOST_REQUIRED',
    500,
    (host: string) => `Configuration for ${host} is unknown: forceHost is required`,
  ),
  hostUnknown: error('HOST_UNKNOWN', 404, () => 'Page Not Found'),
  pageNotFound: error('PAGE_ENTRY_MISSING', 404, (id: string) => `Page ${id} not found`),
};

/** Errors of the JSON API (content, draft, workbench, webhook, builds): `{ error, code, ...details }`. */
export const apiErrors = {
  tokenRequired: error('TOKEN_REQUIRED', 401, () => 'A valid draft API token is required'),
  revalidateTokenRequired: error('REVALIDATE_TOKEN_REQUIRED', 401, () => 'A valid revalidate token is required'),
  webhookSecretRequired: error('WEBHOOK_SECRET_REQUIRED', 401, () => 'A valid webhook secret is required'),
  serviceUnknown: error('SERVICE_UNKNOWN', 404, () => 'Unknown content service'),
  entryNotFound: error('ENTRY_NOT_FOUND', 404, () => 'Entry not found'),
  pageNotFound: error('PAGE_NOT_FOUND', 404, () => 'No such page'),
  draftNotFound: error('DRAFT_NOT_FOUND', 404, () => 'No such draft'),
  contentTypeUnknown: error('CONTENT_TYPE_UNKNOWN', 404, () => 'Unknown content type'),
  buildUnknown: error('BUILD_UNKNOWN', 404, () => 'Unknown build'),
  languageInvalid: error(
    'LANGUAGE_INVALID',
    400,
    (locales: string[]) => `language must be one of ${locales.join(', ')}`,
  ),
  /** The content API's schema refused the parameter's shape. */
  languageMalformed: error('LANGUAGE_INVALID', 400, () => 'language must be a locale code like de-CH'),
  localeInvalid: error('LOCALE_INVALID', 400, () => 'locale is not one of this storefront'),
  uuidInvalid: error('UUID_INVALID', 400, () => 'uuid is not an id'),
  uuidMalformed: error('UUID_INVALID', 400, () => 'uuid must be 1 to 10 digits'),
  hashInvalid: error('HASH_INVALID', 400, (min: number) => `hash must be ${min} to 128 letters, digits, - or _`),
  /** A named thing (draft, page) whose parts do not have the shape of an id. */
  addressInvalid: error('ADDRESS_INVALID', 400, (parts: string) => `${parts} is not of its shape`),
  fieldsRequired: error('FIELDS_REQUIRED', 400, (fields: string) => `${fields} are required strings`),
  contentInvalid: (problem: Problem) =>
    new SiteError('CONTENT_INVALID', 400, `Invalid content: ${problemText(problem)}`, { path: problem.path }),
  threadsInvalid: (problem: Problem) =>
    new SiteError('THREADS_INVALID', 400, `Invalid threads: ${problemText(problem)}`, { path: problem.path }),
  jsonInvalid: error('JSON_INVALID', 400, (reason: string) => `Invalid JSON: ${reason}`),
  webhookEventInvalid: error('WEBHOOK_EVENT_INVALID', 400, () => 'event must be publish, unpublish or delete'),
  webhookModuleIgnored: error('WEBHOOK_MODULE_IGNORED', 400, () => 'only entry events are handled'),
  webhookDataInvalid: error(
    'WEBHOOK_DATA_INVALID',
    400,
    () => 'data must name the entry (data.entry.uid) and its content type (data.content_type.uid)',
  ),
  /** Input a route's schema refused, for a field without a sentence of its own. */
  requestInvalid: error('REQUEST_INVALID', 400, (what: string) => what),
  draftTooLarge: error('DRAFT_TOO_LARGE', 413, (kib: number) => `A draft is at most ${kib} KiB`),
  /** Any other refusal Fastify or a plugin makes (body too large, unsupported media type, …): its status and sentence. */
  requestRefused: (status: number, message: string) =>
    new SiteError(status === 429 ? 'RATE_LIMITED' : 'REQUEST_REFUSED', status, message),
  contentUnavailable: error('CONTENT_UNAVAILABLE', 503, () => 'Content unavailable'),
  contentBroken: error('CONTENT_BROKEN', 500, () => 'Content unavailable'),
  draftsUnavailable: error('DRAFTS_UNAVAILABLE', 503, () => 'Drafts are unavailable; try again shortly'),
  workbenchNotBuilt: error('WORKBENCH_NOT_BUILT', 503, () => 'The workbench is not built: run npm run build'),
  internal: error('INTERNAL', 500, () => 'Internal Server Error'),
};

/** A page's JSON payload (`/_payload.json`) answers the router's refusals with a code by status. */
export function payloadError(status: number, message: string): SiteError {
  const code =
    status === 404
      ? 'PAGE_NOT_FOUND'
      : status === 414
        ? 'URI_TOO_LONG'
        : status >= 500
          ? 'INTERNAL'
          : 'REQUEST_REFUSED';
  return new SiteError(code, status, message);
}

/** Errors of GraphQL over HTTP, answered as `errors[].extensions.code`. */
export const graphqlErrors = {
  getNotAllowed: () => ({
    message: "Only the site's own queries are answered over GET; send other queries by POST",
    extensions: { code: 'GET_QUERY_NOT_ALLOWED' as const },
  }),
};

/** Every code the catalogue can answer. */
export const ERROR_CODES = [
  'HOST_UNKNOWN',
  'FORCE_HOST_REQUIRED',
  'PAGE_ENTRY_MISSING',
  'TOKEN_REQUIRED',
  'REVALIDATE_TOKEN_REQUIRED',
  'WEBHOOK_SECRET_REQUIRED',
  'SERVICE_UNKNOWN',
  'ENTRY_NOT_FOUND',
  'PAGE_NOT_FOUND',
  'DRAFT_NOT_FOUND',
  'CONTENT_TYPE_UNKNOWN',
  'BUILD_UNKNOWN',
  'LANGUAGE_INVALID',
  'LOCALE_INVALID',
  'UUID_INVALID',
  'HASH_INVALID',
  'ADDRESS_INVALID',
  'FIELDS_REQUIRED',
  'CONTENT_INVALID',
  'THREADS_INVALID',
  'JSON_INVALID',
  'WEBHOOK_EVENT_INVALID',
  'WEBHOOK_MODULE_IGNORED',
  'WEBHOOK_DATA_INVALID',
  'REQUEST_INVALID',
  'DRAFT_TOO_LARGE',
  'RATE_LIMITED',
  'REQUEST_REFUSED',
  'URI_TOO_LONG',
  'CONTENT_UNAVAILABLE',
  'CONTENT_BROKEN',
  'DRAFTS_UNAVAILABLE',
  'WORKBENCH_NOT_BUILT',
  'INTERNAL',
  'GET_QUERY_NOT_ALLOWED',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** A configuration file or variable is wrong: the server refuses to start and says where. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
