import { TOKEN_COOKIE_MAX_AGE_S, TOKEN_COOKIE_NAME, TOKEN_HEADER, TOKEN_TYPE } from './constants.ts';

/**
 * Token storage: a cookie of 604800 s, Secure, SameSite Lax, sent by the
 * client as `Authorization: Bearer {token}`. The cookie is readable by script on purpose: the
 * backend takes the token from the header, never from the cookie, so a cross-site request that
 * carries the cookie proves nothing.
 */

export interface TokenStore {
  get(): string | null;
  set(token: string): void;
  clear(): void;
}

/** A cookie jar the store writes through: `document` in the browser, a stand-in in tests. */
export interface CookieJar {
  cookie: string;
}

export function cookieTokenStore(jar: CookieJar = document, name = TOKEN_COOKIE_NAME): TokenStore {
  const write = (value: string, maxAge: number) => {
    jar.cookie = `${name}=${value}; Max-Age=${maxAge}; Path=/; Secure; SameSite=Lax`;
  };
  return {
    get() {
      for (const part of jar.cookie.split(';')) {
        const [key, ...rest] = part.trim().split('=');
        if (key === name) return decodeURIComponent(rest.join('=')) || null;
      }
      return null;
    },
    set: (token) => write(encodeURIComponent(token), TOKEN_COOKIE_MAX_AGE_S),
    clear: () => write('', 0),
  };
}

/** The header for a token, or none when there is no token (anonymous reads). */
export function authorizationHeader(token: string | null): Record<string, string> {
  return token ? { [TOKEN_HEADER]: `${TOKEN_TYPE} ${token}` } : {};
}
