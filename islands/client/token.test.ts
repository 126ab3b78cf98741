import t from 'tap';
import { authorizationHeader, type CookieJar, cookieTokenStore } from './token.ts';

/** A jar that records what is written and keeps name=value pairs the way a browser would. */
function jar() {
  const values = new Map<string, string>();
  const writes: string[] = [];
  const cookies: CookieJar = {
    get cookie() {
      return [...values].map(([k, v]) => `${k}=${v}`).join('; ');
    },
    set cookie(line: string) {
      writes.push(line);
      const [pair = '', ...attributes] = line.split('; ');
      const [name = '', value = ''] = pair.split('=');
      if (attributes.includes('Max-Age=0')) values.delete(name);
      else values.set(name, value);
    },
  };
  return { cookies, values, writes };
}

t.test('login stores the token in a 7-day Secure SameSite=Lax cookie, logout clears it', async (t) => {
  const { cookies, values, writes } = jar();
  values.set('lang', 'en-GB');
  const store = cookieTokenStore(cookies);
  t.equal(store.get(), null);
  store.set('abc.def+/=');
  t.equal(writes[0], 'vitrine_token=abc.def%2B%2F%3D; Max-Age=604800; Path=/; Secure; SameSite=Lax');
  t.equal(store.get(), 'abc.def+/=', 'read back as it was given');
  store.clear();
  t.equal(writes[1], 'vitrine_token=; Max-Age=0; Path=/; Secure; SameSite=Lax');
  t.equal(store.get(), null);
  t.equal(values.get('lang'), 'en-GB', 'other cookies are left alone');
});

t.test('the token travels as a bearer Authorization header, and only when there is one', async (t) => {
  t.same(authorizationHeader('abc'), { Authorization: 'Bearer abc' });
  t.same(authorizationHeader(null), {});
});
