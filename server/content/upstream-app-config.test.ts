import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { createUpstreamContentService } from './upstream.ts';

/**
 * The application configuration over HTTP, against a real server that answers per cookie: the
 * visitor's cookie reaches it, no visitor sees another's answer, a failure is logged with the
 * status and headers, and the page keeps the last good header through an outage.
 */

const HOST = 'www.halden.ch';

interface ConfigUpstream {
  origin: string;
  seen: IncomingHttpHeaders[];
  /** Answer with this status (and a Retry-After header) instead. */
  failWith?: number;
  /** The header title the next answers carry for a visitor without a `who` cookie. */
  title: string;
  /** Whether answers say `Vary: Cookie`. */
  vary: boolean;
}

async function startConfigUpstream(t: Test): Promise<ConfigUpstream> {
  const state: ConfigUpstream = { origin: '', seen: [], title: 'Shared', vary: true };
  const server = createServer((req, res) => {
    state.seen.push(req.headers);
    if (state.failWith) {
      res.writeHead(state.failWith, { 'content-type': 'application/json', 'retry-after': '30' });
      return res.end('{"error":"down"}');
    }
    const who = /(?:^|;\s*)who=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    const title = who ? `For ${who}` : state.title;
    res.writeHead(200, { 'content-type': 'application/json', ...(state.vary ? { vary: 'Cookie' } : {}) });
    res.end(JSON.stringify({ globals: { dhfIsEnabled: true }, navigation: { header: { title, links: [] } } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return state;
}

function service(t: Test, upstream: ConfigUpstream) {
  const errors: { details: Record<string, unknown>; message: string }[] = [];
  const s = createUpstreamContentService({
    contentServiceUrl: upstream.origin,
    appConfigUrl: upstream.origin,
    appConfigCookies: ['who'],
    cacheTtlMs: 60_000,
    staleMs: 0,
    maxEntries: 100,
    logger: {
      warn: () => {},
      error: (details, message) => errors.push({ details: details as Record<string, unknown>, message }),
    },
  });
  t.teardown(() => s.close());
  return { s, errors };
}

const title = async (p: Promise<{ navigation: { header?: { title: string } } }>) => (await p).navigation.header?.title;

t.test('the visitor’s cookie is forwarded with the host, and each visitor gets their own answer', async (t) => {
  const upstream = await startConfigUpstream(t);
  const { s } = service(t, upstream);
  const cases: { cookie: string | undefined; expected: string }[] = [
    { cookie: 'who=alice', expected: 'For alice' },
    { cookie: 'who=bob; lang=de', expected: 'For bob' },
    { cookie: undefined, expected: 'Shared' },
    { cookie: 'who=alice', expected: 'For alice' },
    { cookie: 'lang=de', expected: 'Shared' },
  ];
  for (const { cookie, expected } of cases) {
    t.equal(await title(s.getApplicationConfiguration(HOST, 'de-CH', cookie)), expected, `cookie ${cookie}`);
  }
  t.same(
    upstream.seen.map((h) => [h['x-forwarded-host'], h.cookie]),
    [
      [HOST, 'who=alice'],
      [HOST, 'who=bob'],
      [HOST, undefined],
    ],
    'one request per distinct cookie that matters, carrying only it; alice’s second read and the visitor with only lang=de were cache hits',
  );
});

t.test('concurrent visitors with different cookies are never answered from one request', async (t) => {
  const upstream = await startConfigUpstream(t);
  const { s } = service(t, upstream);
  const who = ['a', 'b', 'c', 'd'];
  const titles = await Promise.all(who.map((w) => title(s.getApplicationConfiguration(HOST, 'de-CH', `who=${w}`))));
  t.same(
    titles,
    who.map((w) => `For ${w}`),
  );
});

t.test('a failed read logs the context failure with status and headers', async (t) => {
  const upstream = await startConfigUpstream(t);
  upstream.failWith = 503;
  const { s, errors } = service(t, upstream);
  await t.rejects(s.getApplicationConfiguration(HOST, 'de-CH'), { code: 'CONTENT_UPSTREAM' }, 'no answer to give');
  t.equal(errors.length, 1, 'logged once');
  t.equal(
    errors[0]?.message,
    `Fetching ${upstream.origin}/_applicationConfiguration?language=de-CH Context failed: 503 Service Unavailable`,
  );
  t.match(errors[0]?.details, {
    status: 503,
    statusText: 'Service Unavailable',
    headers: { 'retry-after': '30', 'content-type': 'application/json' },
    host: HOST,
    locale: 'de-CH',
  });
});

t.test('after a content change and an outage the page keeps the last good header', async (t) => {
  const upstream = await startConfigUpstream(t);
  const { s, errors } = service(t, upstream);
  t.equal(await title(s.getApplicationConfiguration(HOST, 'de-CH')), 'Shared');
  t.equal(await title(s.getApplicationConfiguration(HOST, 'de-CH', 'who=alice')), 'For alice');
  // The change empties the read cache, so only the last good answers are left to fall back on.
  s.changes.announce({ origin: 'revalidate' });
  upstream.failWith = 502;
  const cases: [string | undefined, string][] = [
    [undefined, 'Shared'],
    ['who=alice', 'For alice'],
    ['who=bob', 'Shared'],
  ];
  for (const [cookie, expected] of cases) {
    t.equal(await title(s.getApplicationConfiguration(HOST, 'de-CH', cookie)), expected, `cookie ${cookie}`);
  }
  t.equal(errors.length, 3, 'every failed read is logged even when a last good answer covers it');
  await t.rejects(
    s.getApplicationConfiguration(HOST, 'fr-CH'),
    { code: 'CONTENT_UPSTREAM' },
    'no last good answer in another language',
  );
  upstream.failWith = undefined;
  upstream.title = 'Recovered';
  t.equal(await title(s.getApplicationConfiguration(HOST, 'de-CH')), 'Recovered', 'the next good read wins');
});

t.test('an answer made for the cookie is marked personal; one that does not vary is not', async (t) => {
  for (const vary of [true, false]) {
    const upstream = await startConfigUpstream(t);
    upstream.vary = vary;
    const { s } = service(t, upstream);
    const rows: [string | undefined, boolean][] = [
      ['who=alice', vary],
      [undefined, false],
      ['', false],
    ];
    t.equal(s.appConfigVaries(HOST, 'de-CH'), false, 'nothing known before a read');
    for (const [cookie, personal] of rows) {
      const config = await s.getApplicationConfiguration(HOST, 'de-CH', cookie);
      t.equal(config.personal === true, personal, `Vary: Cookie ${vary}, cookie ${cookie}`);
    }
    t.equal(s.appConfigVaries(HOST, 'de-CH'), vary, `the source knows the host varies: ${vary}`);
    t.equal(s.appConfigVaries(HOST, 'fr-CH'), false, 'per language');
  }
});
