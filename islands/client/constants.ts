/**
 * The data layer's constants (timeouts, back-off, limits) in one place so tests and callers
 * can name them. Options may override the timing ones (tests use short back-off).
 */

/** Real-time retry: attempts before a subscription gives up. */
export const RETRY_ATTEMPTS = 5;
/** Exponential back-off base: 1000 ms, 2000 ms, 4000 ms… */
export const RETRY_BASE_MS = 1000;
/** Random jitter added to every back-off, so a server restart is not met by every client at once. */
export const RETRY_JITTER_MIN_MS = 300;
export const RETRY_JITTER_MAX_MS = 3000;
/** Keep-alive ping and connection-ack timeout: 0 is off. */
export const KEEP_ALIVE_MS = 0;
export const ACK_TIMEOUT_MS = 0;
/** Close code of a deliberate client restart (after login or logout). */
export const RESTART_CLOSE_CODE = 4205;
/** Entries the opt-in result cache holds. */
export const RESULT_CACHE_MAX = 50_000;
/** Token cookie: 7 days, Secure, SameSite Lax, bearer type in the Authorization header. */
export const TOKEN_COOKIE_MAX_AGE_S = 604_800;
export const TOKEN_COOKIE_NAME = 'vitrine_token';
export const TOKEN_TYPE = 'Bearer';
export const TOKEN_HEADER = 'Authorization';
/** The embedded backend's path. */
export const DEFAULT_ENDPOINT = '/graphql';
