/**
 * The catalogue of errors the site can show or log. Each has a stable code; messages are worded as
 * the site has always shown them (visitors and monitors match on them). Never reuse a retired code.
 */

export type SiteErrorCode =
  | 'HOST_UNKNOWN'
  | 'FORCE_HOST_REQUIRED'
  | 'PAGE_NOT_FOUND'
  | 'PAGE_ENTRY_MISSING'
  | 'CONTENT_UNAVAILABLE'
  | 'INTERNAL';

/** An error meant for the visitor: a status and a message that is safe to show (escaped on output). */
export class SiteError extends Error {
  readonly status: number;
  readonly code: SiteErrorCode;
  constructor(code: SiteErrorCode, status: number, message: string) {
    super(message);
    this.name = 'SiteError';
    this.code = code;
    this.status = status;
  }
}

export const siteErrors = {
  forceHostRequired: (host: string) =>
    new SiteError('FORCE_HOST_REQUIRED', 500, `Configuration for ${host} is unknown: forceHost is required`),
  hostUnknown: () => new SiteError('HOST_UNKNOWN', 404, 'Page Not Found'),
  pageNotFound: (id: string) => new SiteError('PAGE_ENTRY_MISSING', 404, `Page ${id} not found`),
  contentUnavailable: () => new SiteError('CONTENT_UNAVAILABLE', 503, 'Service Unavailable'),
};

/** A configuration file or variable is wrong: the server refuses to start and says where. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
