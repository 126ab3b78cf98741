import t from 'tap';
import type { ApplicationConfiguration } from '../../common/content.ts';
import { HttpError } from '../http/client.ts';
import {
  appConfigScope,
  contextFailure,
  LastGoodAppConfigs,
  pickCookies,
  sharedAppConfigScope,
  sharedByUrl,
  variesByCookie,
} from './app-config.ts';
import { ContentError } from './service.ts';

const HOST = 'www.halden.ch';
const config = (title: string): ApplicationConfiguration => ({
  globals: { dhfIsEnabled: true },
  navigation: { header: { title, links: [] } },
});

t.test('visitors share a cache scope only when neither sends a cookie', async (t) => {
  const cases: { a: [string, string | undefined]; b: [string, string | undefined]; same: boolean }[] = [
    { a: [HOST, undefined], b: [HOST, undefined], same: true },
    { a: [HOST, undefined], b: [HOST, ''], same: true },
    { a: [HOST, 'lang=de'], b: [HOST, 'lang=de'], same: true },
    { a: [HOST, 'lang=de'], b: [HOST, 'lang=fr'], same: false },
    { a: [HOST, undefined], b: [HOST, 'lang=de'], same: false },
    { a: [HOST, 'lang=de'], b: ['www.halden.de', 'lang=de'], same: false },
    { a: [HOST, undefined], b: ['www.halden.de', undefined], same: false },
  ];
  for (const { a, b, same } of cases) {
    t.equal(appConfigScope(...a) === appConfigScope(...b), same, `${a.join(' / ')} vs ${b.join(' / ')}`);
  }
  t.equal(appConfigScope(HOST, undefined), sharedAppConfigScope(HOST), 'no cookie is the shared scope');
});

t.test('the cookie itself never appears in a cache key', async (t) => {
  for (const cookie of ['session=secret-token-123', 'lang=de; session=abc', 'x=<script>']) {
    const scope = appConfigScope(HOST, cookie);
    t.notMatch(scope, cookie, cookie);
    t.match(scope, /^www\.halden\.ch [A-Za-z0-9_-]+$/, 'host then a digest');
  }
});

t.test('a failed read is logged as the context failure with status and headers', async (t) => {
  const where = 'http://cfg/_applicationConfiguration?language=de-CH';
  const httpError = new HttpError('HTTP_STATUS', 'GET … 503 Service Unavailable', {
    method: 'GET',
    url: where,
    status: 503,
    statusText: 'Service Unavailable',
    headers: { 'retry-after': '30', 'x-request-id': 'r-1' },
  });
  const cases: { name: string; error: unknown; message: string; details: object }[] = [
    {
      name: 'an HTTP status',
      error: httpError,
      message: `Fetching ${where} Context failed: 503 Service Unavailable`,
      details: { where, status: 503, statusText: 'Service Unavailable', headers: { 'retry-after': '30' } },
    },
    {
      name: 'an HTTP status wrapped by the content layer',
      error: new ContentError('CONTENT_UPSTREAM', 'Content upstream failed', where, { cause: httpError }),
      message: `Fetching ${where} Context failed: 503 Service Unavailable`,
      details: { status: 503, headers: { 'x-request-id': 'r-1' } },
    },
    {
      name: 'no response at all',
      error: new HttpError('HTTP_NETWORK', 'GET … failed: connect ECONNREFUSED', { method: 'GET', url: where }),
      message: `Fetching ${where} Context failed: GET … failed: connect ECONNREFUSED`,
      details: { where, reason: 'GET … failed: connect ECONNREFUSED' },
    },
    {
      name: 'an answer that is not the configuration',
      error: new ContentError('CONTENT_UPSTREAM', 'Content upstream answer lacks an object', where),
      message: `Fetching ${where} Context failed: Content upstream answer lacks an object`,
      details: { where },
    },
  ];
  for (const { name, error, message, details } of cases) {
    const failure = contextFailure(where, error);
    t.equal(failure.message, message, name);
    t.match(failure.details, details, `${name}: details`);
  }
});

t.test('the last good answer: the visitor’s own first, else the shared one, never another visitor’s', async (t) => {
  const kept = new LastGoodAppConfigs(10);
  const shared = appConfigScope(HOST, undefined);
  const alice = appConfigScope(HOST, 'session=alice');
  const bob = appConfigScope(HOST, 'session=bob');
  t.equal(kept.recall(HOST, shared, 'de-CH'), undefined, 'nothing before a good read');
  kept.remember(HOST, alice, 'de-CH', config('for alice'));
  t.equal(kept.recall(HOST, bob, 'de-CH'), undefined, 'bob never gets alice’s answer');
  t.equal(kept.recall(HOST, shared, 'de-CH'), undefined, 'nor does a visitor without a cookie');
  kept.remember(HOST, shared, 'de-CH', config('shared'));
  const cases: [string, string, string, string | undefined][] = [
    ['alice', alice, 'de-CH', 'for alice'],
    ['bob', bob, 'de-CH', 'shared'],
    ['no cookie', shared, 'de-CH', 'shared'],
    ['another language', shared, 'fr-CH', undefined],
  ];
  for (const [who, scope, locale, title] of cases) {
    t.equal(kept.recall(HOST, scope, locale)?.navigation.header?.title, title, `${who} (${locale})`);
  }
  t.equal(kept.recall('www.halden.de', shared, 'de-CH'), undefined, 'another storefront');
});

t.test('the visitors’ answers are bounded; the shared ones are not pushed out by them', async (t) => {
  const kept = new LastGoodAppConfigs(2);
  kept.remember(HOST, sharedAppConfigScope(HOST), 'de-CH', config('shared'));
  for (const who of ['a', 'b', 'c']) kept.remember(HOST, appConfigScope(HOST, who), 'de-CH', config(who));
  t.equal(kept.recall(HOST, appConfigScope(HOST, 'a'), 'de-CH')?.navigation.header?.title, 'shared', 'a left');
  t.equal(kept.recall(HOST, appConfigScope(HOST, 'c'), 'de-CH')?.navigation.header?.title, 'c', 'c kept');
});

t.test('an answer depends on the cookie when its caching headers say so', async (t) => {
  const rows: [Record<string, string | string[]>, boolean][] = [
    [{}, false],
    [{ vary: 'Accept-Encoding' }, false],
    [{ vary: 'Accept-Encoding, Cookie' }, true],
    [{ vary: 'cookie' }, true],
    [{ vary: '*' }, true],
    [{ vary: ['Accept-Language', 'Cookie'] }, true],
    [{ vary: 'X-Cookie-Free' }, false],
    [{ 'cache-control': 'public, max-age=60' }, false],
    [{ 'cache-control': 'private, max-age=60' }, true],
    [{ 'cache-control': 'no-store' }, true],
    [{ 'cache-control': 'private="set-cookie"' }, true],
  ];
  for (const [headers, expected] of rows) t.equal(variesByCookie(headers), expected, JSON.stringify(headers));
});

t.test('a page is shared by URL unless the visitor’s cookie matters to the host’s configuration', async (t) => {
  const varies = {
    appConfigVaries: (host: string, locale: string) => host === HOST && locale === 'de-CH',
    appConfigCookie: (cookie: string | undefined) => pickCookies(cookie, ['who']),
  };
  const rows: [string, object, string, string | undefined, boolean][] = [
    ['no cookie', varies, 'de-CH', undefined, true],
    ['empty cookie', varies, 'de-CH', '', true],
    ['a cookie the configuration depends on', varies, 'de-CH', 'who=alice', false],
    ['a cookie, another language', varies, 'fr-CH', 'who=alice', true],
    ['a cookie, a source with one answer for all', {}, 'de-CH', 'who=alice', true],
  ];
  for (const [name, content, locale, cookie, shared] of rows)
    t.equal(sharedByUrl(content, HOST, locale, cookie), shared, name);
});

t.test('only the cookies that matter are picked, in one order', async (t) => {
  const rows: [string | undefined, string[], string | undefined][] = [
    ['who=ann', ['who'], 'who=ann'],
    ['_ga=1; who=ann; x=2', ['who'], 'who=ann'],
    ['tier=b; who=ann', ['who', 'tier'], 'tier=b; who=ann'],
    ['who=ann; tier=b', ['who', 'tier'], 'tier=b; who=ann'],
    ['_ga=1; x=2', ['who'], undefined],
    ['who=ann', [], undefined],
    [undefined, ['who'], undefined],
    ['', ['who'], undefined],
    ['whom=x; who2=y', ['who'], undefined],
  ];
  for (const [header, names, picked] of rows) t.equal(pickCookies(header, names), picked, `${header} ${names}`);
});

t.test('a page stays shared by URL unless a cookie that matters meets a configuration that varies', async (t) => {
  const source = (varies: boolean) => ({
    appConfigVaries: () => varies,
    appConfigCookie: (cookie: string | undefined) => pickCookies(cookie, ['who']),
  });
  t.ok(sharedByUrl(source(true), 'h', 'de', undefined));
  t.ok(sharedByUrl(source(true), 'h', 'de', 'junk=1; _ga=2'), 'other cookies split nothing');
  t.notOk(sharedByUrl(source(true), 'h', 'de', 'junk=1; who=ann'));
  t.ok(sharedByUrl(source(false), 'h', 'de', 'who=ann'), 'a configuration that does not vary');
  t.ok(sharedByUrl({ appConfigVaries: () => true }, 'h', 'de', 'who=ann'), 'a source to which no cookie matters');
});
