import t, { type Test } from 'tap';
import { createApi, loginForm, readToken, TOKEN_KEY } from './api.ts';
import { installDom } from './test-dom.ts';

/** The API door: the token's two sources, the bearer header, refusals and errors. */

t.test('a token in the fragment is kept for the session and removed from the address', async (t) => {
  const win = installDom(t, 'https://www.halden.co.uk/__workbench?mode=builder#token=s3cret');
  t.equal(readToken(win as unknown as Window), 's3cret');
  t.equal(win.sessionStorage.getItem(TOKEN_KEY), 's3cret');
  t.equal(win.location.href, 'https://www.halden.co.uk/__workbench?mode=builder');
});

t.test('without a fragment the session token is used; none means null', async (t) => {
  const win = installDom(t);
  t.equal(readToken(win as unknown as Window), null);
  win.sessionStorage.setItem(TOKEN_KEY, 'kept');
  t.equal(readToken(win as unknown as Window), 'kept');
});

function withFetch(t: Test, status: number, body: string) {
  const win = installDom(t);
  const calls: { url: string; init: RequestInit }[] = [];
  const fake = {
    fetch: async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(body || null, { status });
    },
    sessionStorage: win.sessionStorage,
  };
  return { win, calls, api: createApi(fake as unknown as Window, 'tok') };
}

t.test('every call carries the bearer token and JSON content type; the body is parsed', async (t) => {
  const { calls, api } = withFetch(t, 200, '{"current":"www"}');
  t.same(await api('/__workbench/api/catalog', { method: 'GET' }), { current: 'www' });
  const headers = calls[0]?.init.headers as Record<string, string>;
  t.equal(headers.authorization, 'Bearer tok');
  t.equal(headers['content-type'], 'application/json');
});

t.test('an empty body is an empty object', async (t) => {
  const { api } = withFetch(t, 204, '');
  t.same(await api('/x'), {});
});

t.test('a refused token is forgotten and named', async (t) => {
  const { win, api } = withFetch(t, 401, '{"error":"no"}');
  win.sessionStorage.setItem(TOKEN_KEY, 'tok');
  await t.rejects(api('/x'), /token was refused/);
  t.equal(win.sessionStorage.getItem(TOKEN_KEY), null);
});

t.test("an error answer throws the server's message, else the status", async (t) => {
  await t.rejects(withFetch(t, 400, '{"error":"$.title: Expected string"}').api('/x'), /\$\.title: Expected string/);
  await t.rejects(withFetch(t, 500, '{}').api('/x'), /HTTP 500/);
});

t.test('the login form keeps the typed token and starts again; a reason is shown', async (t) => {
  const win = installDom(t);
  let reloaded = 0;
  const fake = { sessionStorage: win.sessionStorage, location: { reload: () => reloaded++ } };
  const form = loginForm(fake as unknown as Window, 'The draft API token was refused');
  t.match(form.querySelector('p')?.textContent, '(The draft API token was refused)');
  const input = form.querySelector('input') as HTMLInputElement;
  input.value = 'typed';
  form.dispatchEvent(new win.Event('submit', { cancelable: true }) as unknown as Event);
  t.equal(win.sessionStorage.getItem(TOKEN_KEY), 'typed');
  t.equal(reloaded, 1);
});
