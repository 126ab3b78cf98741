import { h } from './h.ts';

/**
 * The workbench's server API: every call carries the draft API token as a bearer token. The token
 * comes from `#token=` (then dropped from the address, so it is not in history) or this tab's
 * session; a refused token is forgotten and the login form asks again.
 */

export const TOKEN_KEY = 'vitrine-workbench-token';

export type Api = <T>(path: string, init?: RequestInit) => Promise<T>;

/** The token: from the fragment (kept in the session, removed from the address) or the session. */
export function readToken(win: Window): string | null {
  const fragment = new URLSearchParams(win.location.hash.slice(1));
  const given = fragment.get('token');
  if (given) {
    win.sessionStorage.setItem(TOKEN_KEY, given);
    win.history.replaceState(null, '', win.location.pathname + win.location.search);
  }
  return win.sessionStorage.getItem(TOKEN_KEY);
}

export function createApi(win: Window, token: string | null): Api {
  return async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const response = await win.fetch(path, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
    });
    if (response.status === 401) {
      win.sessionStorage.removeItem(TOKEN_KEY);
      throw new Error('The draft API token was refused');
    }
    const text = await response.text();
    const body = (text ? JSON.parse(text) : {}) as T & { error?: string };
    if (!response.ok) throw new Error(body.error ?? `HTTP ${response.status}`);
    return body;
  };
}

/** The login form: the token goes into the session and the workbench starts again. */
export function loginForm(win: Window, reason?: string): HTMLFormElement {
  const input = h('input', { type: 'password', name: 'token', autocomplete: 'off', required: true });
  const form = h(
    'form',
    { className: 'wb-login' },
    h('h1', {}, 'Preview workbench'),
    h('p', {}, `Enter the draft API token (DRAFT_API_TOKEN) of this server.${reason ? ` (${reason})` : ''}`),
    h('label', {}, 'Token', input),
    h('button', { type: 'submit' }, 'Open'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    win.sessionStorage.setItem(TOKEN_KEY, input.value);
    win.location.reload();
  });
  return form;
}
