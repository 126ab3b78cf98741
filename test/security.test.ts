import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import t from 'tap';
import type { SitesConfig } from '../common/site.ts';
import { loadSitesConfig } from '../server/config/sites.ts';
import { demoServer, HOSTS } from './helpers.ts';
import { SLASH_TRICKS } from './slash-tricks.ts';
import { until } from './until.ts';

/**
 * The attack catalogue of docs/security.md (cases 1–11 and 15–17; the preview cases live with the preview
 * layer's tests). Each test is named after the attack; headers go over a real socket.
 */
const DISHWASHER = '/cs/kitchen/aquasense-60-dishwasher-4711';

async function listening(app: FastifyInstance): Promise<{ port: number }> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { port: address.port };
}

/** A raw HTTP/1.1 request, so no client library normalises the hostile parts away. */
function raw(port: number, lines: string[]): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1');
    });
    socket.on('end', () => {
      const [head = '', ...rest] = data.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head, body: rest.join('\r\n\r\n') });
    });
    socket.on('error', reject);
    socket.write(`${lines.join('\r\n')}\r\nConnection: close\r\n\r\n`);
  });
}

const locationOf = (headers: string) => /\r\nlocation: ([^\r]*)/i.exec(headers)?.[1];

let app: FastifyInstance;
let port: number;
t.before(async () => {
  app = await demoServer();
  ({ port } = await listening(app));
});
t.teardown(() => app.close());

t.test(
  '1. host header injection: unknown hosts get 404, loopback gets the forced host, nothing is cached for them',
  async (t) => {
    t.equal((await raw(port, [`GET ${DISHWASHER} HTTP/1.1`, 'Host: evil.example'])).status, 404);
    const loopback = await raw(port, ['GET /de HTTP/1.1', 'Host: 127.0.0.1']);
    t.equal(loopback.status, 200);
    t.match(loopback.body, 'https://www.halden.ch/de', 'links built from the forced storefront, not the Host');
    const unknown = await raw(port, [`GET ${DISHWASHER} HTTP/1.1`, 'Host: evil.example']);
    t.match(unknown.headers, /cache-control: no-store/i);
    t.notMatch(unknown.body, 'evil.example');
  },
);

t.test(
  '2. forged X-Forwarded-Host / X-Forwarded-Proto never reach canonical, og:url, hreflang, JSON-LD or Location',
  async (t) => {
    const page = await raw(port, [
      `GET ${DISHWASHER} HTTP/1.1`,
      `Host: ${HOSTS.uk}`,
      'X-Forwarded-Host: evil.example',
      'X-Forwarded-Proto: http',
    ]);
    t.equal(page.status, 200);
    t.notMatch(page.body, 'evil.example');
    t.notMatch(page.body, 'http://www.halden');
    const redirect = await raw(port, [
      'GET /cs/x-4711 HTTP/1.1',
      `Host: ${HOSTS.uk}`,
      'X-Forwarded-Host: evil.example',
    ]);
    t.equal(locationOf(redirect.headers), DISHWASHER);

    // Behind a trusted proxy, X-Forwarded-Host may pick a configured storefront, never another host.
    const proxied = await demoServer({ trustProxy: '127.0.0.1' });
    t.teardown(() => proxied.close());
    const { port: proxiedPort } = await listening(proxied);
    const viaProxy = await raw(proxiedPort, [
      'GET / HTTP/1.1',
      'Host: origin.internal',
      `X-Forwarded-Host: ${HOSTS.de}`,
    ]);
    t.equal(viaProxy.status, 200);
    t.match(viaProxy.body, '<html lang="de-DE">');
    // The header chose the storefront, so a shared cache in front must key on it (issue 32, finding 7).
    const varies = (headers: string) => /\r\nvary: [^\r]*\bx-forwarded-host\b/i.test(headers);
    t.ok(varies(viaProxy.headers), 'a page whose storefront a forwarded header chose varies on it');
    const direct = await raw(proxiedPort, [`GET ${DISHWASHER} HTTP/1.1`, `Host: ${HOSTS.uk}`]);
    t.ok(varies(direct.headers), 'so does the same page asked for without it: either answer may be cached');
    const moved = await raw(proxiedPort, ['GET /cs/x-4711 HTTP/1.1', `Host: ${HOSTS.uk}`]);
    t.equal(moved.status, 301);
    t.ok(varies(moved.headers), 'and a redirect');
    t.notOk(varies(page.headers), 'without a trusted proxy the header chooses nothing and nothing varies on it');
    const forged = await raw(proxiedPort, ['GET / HTTP/1.1', `Host: ${HOSTS.uk}`, 'X-Forwarded-Host: evil.example']);
    t.equal(forged.status, 200, 'an unconfigured forwarded host is ignored');
    t.match(forged.body, '<html lang="en-GB">');
    t.notMatch(forged.body, 'evil.example');
  },
);

t.test(
  '3. cache poisoning through unkeyed headers: a first request with them does not change a later clean one',
  async (t) => {
    const fresh = await demoServer();
    t.teardown(() => fresh.close());
    const { port: p } = await listening(fresh);
    const poisoned = await raw(p, [
      `GET ${DISHWASHER} HTTP/1.1`,
      `Host: ${HOSTS.uk}`,
      'X-Forwarded-Host: evil.example',
      'X-Original-URL: /cs/nope-999',
      'X-Rewrite-URL: /cs/nope-999',
      'X-Middleware-Subrequest: middleware',
      'Accept: application/json',
    ]);
    const clean = await raw(p, [`GET ${DISHWASHER} HTTP/1.1`, `Host: ${HOSTS.uk}`]);
    t.equal(poisoned.status, 200, 'internal headers do not change routing');
    t.equal(clean.status, 200);
    t.equal(clean.body, poisoned.body);
  },
);

t.test('4. one URL, one public representation: payload and preview parameters', async (t) => {
  const normal = await app.inject({ url: '/', headers: { host: HOSTS.uk } });
  const trick = await app.inject({ url: '/?/_payload.json', headers: { host: HOSTS.uk } });
  t.match(trick.headers['content-type'], /text\/html/);
  t.equal(trick.body, normal.body);
  const preview = await app.inject({ url: '/?live_preview=x', headers: { host: HOSTS.uk } });
  t.equal(preview.headers['cache-control'], 'private, no-store');
  t.equal(preview.headers['x-robots-tag'], 'noindex');
  const buttons = await app.inject({ url: '/?cslp-buttons=false', headers: { host: HOSTS.uk } });
  t.equal(buttons.body, normal.body, 'an unknown parameter gives the normal page');
});

t.test('5. redirects vary only where they depend on the visitor', async (t) => {
  const canonical = await app.inject({ url: '/cs/x-4711', headers: { host: HOSTS.uk } });
  t.equal(canonical.headers.vary, undefined);
  const language = await app.inject({ url: '/', headers: { host: HOSTS.ch } });
  t.match(language.headers.vary, /Accept-Language/);
  t.equal(language.headers['cache-control'], 'private, no-store');
});

t.test('6. open redirect through slash tricks', async (t) => {
  const paths = [
    ...SLASH_TRICKS,
    // The percent-encoding canonical 301 (one spelling per path) went around the door (issue 32).
    '//evil.example/%7e',
    '///evil.example/%7E',
    '/\\evil.example/%41',
    '/\\/evil.example/%7e',
    '/%2F%2Fevil.example/%7e',
    '/%252F%252Fevil.example/%7e',
    '/%5C%5Cevil.example/%7e',
    '/.//evil.example/%7e',
    '/de/..//evil.example/%7e',
  ];
  for (const host of [HOSTS.uk, HOSTS.ch]) {
    for (const path of paths) {
      if (/^\/[/\\]/.test(path) || /%2F|%5C|\.\//.test(path)) {
        const res = await raw(port, [`GET ${path} HTTP/1.1`, `Host: ${host}`]);
        t.equal(res.status, 404, `${path} names no page: 404, not a redirect to a respelling`);
      }
      for (const query of ['', '?a=1']) {
        const res = await raw(port, [`GET ${path}${query} HTTP/1.1`, `Host: ${host}`]);
        const location = locationOf(res.headers);
        t.ok(res.status < 500, `${host}${path}${query} is not a server error`);
        if (location) {
          t.notOk(location.startsWith('//') || location.startsWith('/\\'), `${path}${query} → ${location}`);
          // A browser resolves it on the host asked for (`%252F` is a path segment holding `%2F`, not a slash).
          t.equal(new URL(location, `http://${host}`).host, host, `${path}${query} stays on ${host}`);
          if (!path.includes('%25')) t.notMatch(location, 'evil.example');
        }
      }
    }
  }
});

t.test('7. canonical redirect with a hostile path is built from taxonomy, slug and id only', async (t) => {
  for (const path of [
    '/de/cs//evil.example/x-4711',
    '/de/cs/%2F%2Fevil.example/x-4711',
    '/de/cs/%5Cevil.example/x-4711',
    '/de/cs/evil.example/x-4711',
  ]) {
    const res = await raw(port, [`GET ${path} HTTP/1.1`, `Host: ${HOSTS.ch}`]);
    const location = locationOf(res.headers);
    t.ok(res.status < 500, path);
    if (location) t.equal(location, '/de/cs/kueche/aquasense-60-geschirrspueler-4711', `${path} → canonical`);
  }
});

t.test('8. route rules with off-site or script targets are ignored and logged', async (t) => {
  const base = loadSitesConfig('config/sites.json').config;
  const evilRules = {
    '/de/cs/a': { redirect: 'https://evil.example/x' },
    '/de/cs/b': { redirect: 'javascript:alert(1)' },
    '/de/cs/c': { redirect: ' JaVaScRiPt:alert(1)' },
    '/de/cs/d': { redirect: 'java\tscript:alert(1)' },
    '/de/cs/e': { redirect: 'data:text/html,<script>alert(1)</script>' },
    '/de/cs/f': { redirect: 'vbscript:msgbox' },
    '/de/cs/g': { redirect: { to: '/de', statusCode: 303 } },
  };
  const sites: SitesConfig = {
    ...base,
    sites: base.sites.map((s) => (s.host === HOSTS.ch ? { ...s, routeRules: evilRules } : s)),
  };
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const server = await demoServer({ sites, logger: { level: 'warn', stream } });
  t.teardown(() => server.close());
  for (const path of Object.keys(evilRules)) {
    const res = await server.inject({ url: path, headers: { host: HOSTS.ch } });
    t.notOk(res.headers.location, `${path} is not redirected`);
  }
  t.ok(lines.length >= Object.keys(evilRules).length, 'each ignored rule is logged');
  t.match(lines.join(''), /route rule/);
});

t.test('9. reflected XSS: paths and language segments come back as text', async (t) => {
  for (const url of [
    '/%3Cscript%3Ealert(1)%3C/script%3E/cs/x',
    '/cs/%22%3E%3Csvg%20onload=alert(1)%3E-1',
    '/%3Cb%3E/cs/a-1',
    '/de/cs/%3Cscript%3E-1',
  ]) {
    for (const host of [HOSTS.uk, HOSTS.ch]) {
      const res = await app.inject({ url, headers: { host } });
      t.ok(res.statusCode < 500, `${host}${url} not a server error`);
      t.notMatch(res.body, /<script>alert|<svg onload|<b>/i, `${host}${url} not reflected as markup`);
      if (res.headers.location) t.notMatch(res.headers.location, /[<>"]/);
    }
  }
});

t.test('10. stored XSS through CMS content is sanitised, dropped or escaped', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-xss-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  cpSync('content/en-GB', join(dir, 'en-GB'), { recursive: true });
  const templateFile = join(dir, 'en-GB/page_template/dishwasher.json');
  const template = JSON.parse(readFileSync(templateFile, 'utf8'));
  template.body_components.unshift({
    _content_type_uid: 'rich_text',
    uid: 'evil',
    title: '</script><script>alert(1)</script>',
    text: '<p onclick="alert(1)">x</p><script>alert(2)</script><a href="javascript:alert(3)">y</a><img src=x onerror=alert(4)>',
  });
  template.body_components[2].productFeatures[0].legalInformation[0].longText = 'ok<script>alert(5)</script><!--';
  template.body_components[2].product.name = 'Dish</script><script>alert(9)</script>';
  writeFileSync(templateFile, JSON.stringify(template));
  const pageFile = join(dir, 'en-GB/pages/4711.json');
  const page = JSON.parse(readFileSync(pageFile, 'utf8'));
  page.url_taxonomy[0].url_taxonomy_segments[0].title = '</script><!--<script>alert(6)</script>';
  page.url_taxonomy[0].url_taxonomy_segments[0].link[0] = { url: 'javascript:alert(7)', url_type: 'external' };
  writeFileSync(pageFile, JSON.stringify(page));
  const appConfigFile = join(dir, 'en-GB/_applicationConfiguration.json');
  const appConfig = JSON.parse(readFileSync(appConfigFile, 'utf8'));
  appConfig.navigation.header.title = '</script><script>alert(8)</script>';
  writeFileSync(appConfigFile, JSON.stringify(appConfig));

  const server = await demoServer({ contentDir: dir });
  t.teardown(() => server.close());
  const res = await server.inject({ url: DISHWASHER, headers: { host: HOSTS.uk } });
  t.equal(res.statusCode, 200);
  t.notMatch(res.body, /<script>alert/);
  t.notMatch(res.body, /onclick=|onerror=/);
  t.notMatch(res.body, /href="javascript:/i);
  t.notMatch(res.body, /<\/script><!--/);
  // Every JSON-LD block (breadcrumbs and the product both carry CMS text) escapes </script> and stays JSON.
  const blocks = [...res.body.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map((m) => m[1] ?? '');
  t.ok(blocks.length >= 2, 'breadcrumb and product data');
  for (const block of blocks) t.doesNotThrow(() => JSON.parse(block), 'stays JSON');
  const hostile = blocks.filter((block) => block.includes('alert('));
  t.equal(hostile.length, 2, 'the hostile texts reached both blocks, as data');
  for (const block of hostile) t.match(block, '\\u003c/script\\u003e', 'JSON-LD escapes </script>');
});

t.test('11. prototype poisoning through request bodies changes no prototype', async (t) => {
  const res = await app.inject({
    method: 'POST',
    url: '/cs/api/_revalidate',
    headers: { host: HOSTS.uk, 'content-type': 'application/json', authorization: 'Bearer x' },
    payload: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
  });
  t.ok(res.statusCode >= 400 && res.statusCode < 500);
  t.equal(({} as Record<string, unknown>).polluted, undefined);
});

t.test('14. framing: public pages allow only frame-ancestors self; visitors get no preview code', async (t) => {
  const res = await app.inject({ url: DISHWASHER, headers: { host: HOSTS.uk } });
  t.match(res.headers['content-security-policy'], /frame-ancestors 'self'/);
  t.notMatch(res.body, 'data-cslp');
  t.notMatch(res.body, /preview|live-preview|cslp/i);
});

t.test('15. static asset traversal never escapes the build folder', async (t) => {
  for (const path of [
    '/assets/../package.json',
    '/assets/%2E%2E/package.json',
    '/assets/..%2Fpackage.json',
    '/assets/%2F..%2F..%2Fpackage.json',
    '/assets//etc/passwd',
    '/assets/.vite/manifest.json',
    '/images/../../package.json',
  ]) {
    const res = await raw(port, [`GET ${path} HTTP/1.1`, `Host: ${HOSTS.uk}`]);
    t.notMatch(res.body, /"name": "vitrine"|root:x:0|"isEntry"/, `${path} does not leak a file (status ${res.status})`);
  }
});

t.test('15. a static file that is not there gets a lean 404, not the rendered error page', async (t) => {
  for (const path of ['/assets/no-such-file.js', '/assets/x/y.css', '/images/no-such-file.png']) {
    const res = await raw(port, [`GET ${path} HTTP/1.1`, `Host: ${HOSTS.uk}`]);
    t.equal(res.status, 404, path);
    t.match(res.headers, /\r\ncontent-type: text\/plain/i, `${path}: plain text`);
    t.ok(res.body.length < 100, `${path}: ${res.body.length} bytes, no page`);
    t.match(res.headers, /\r\nx-content-type-options: nosniff/i, `${path}: the security headers still`);
  }
});

t.test('a URL the router cannot decode gets the site’s 400 page with the security headers', async (t) => {
  for (const url of ['/%C0%AF', '/cs/%E0%A4%A']) {
    const res = await raw(port, [`GET ${url} HTTP/1.1`, `Host: ${HOSTS.uk}`]);
    t.equal(res.status, 400, url);
    t.match(res.headers, /\r\ncontent-security-policy: [^\r]*default-src 'self'/i, `${url}: CSP`);
    t.match(res.headers, /\r\nx-content-type-options: nosniff/i, `${url}: nosniff`);
  }
});

t.test('16. oversized headers, URLs and bodies are refused; the server keeps serving', async (t) => {
  const bigHeader = await raw(port, ['GET / HTTP/1.1', `Host: ${HOSTS.uk}`, `X-Big: ${'a'.repeat(20_000)}`]);
  t.equal(bigHeader.status, 431);
  const longUrl = await app.inject({ url: `/cs/${'a'.repeat(10_000)}-1`, headers: { host: HOSTS.uk } });
  t.equal(longUrl.statusCode, 414);
  const guarded = await demoServer({ revalidateToken: 'a-token-for-the-size-limit' });
  t.teardown(() => guarded.close());
  const bigBody = (authorization: string) =>
    guarded.inject({
      method: 'POST',
      url: '/cs/api/_revalidate',
      headers: { host: HOSTS.uk, 'content-type': 'application/json', authorization },
      payload: JSON.stringify({ x: 'a'.repeat(10_000) }),
    });
  t.equal((await bigBody('Bearer a-token-for-the-size-limit')).statusCode, 413, 'past the body limit');
  t.equal((await bigBody('Bearer wrong')).statusCode, 401, 'unauthenticated: refused before the body is read');
  t.equal((await app.inject({ url: '/', headers: { host: HOSTS.uk } })).statusCode, 200, 'still serving');
});

t.test('16. a client that sends headers too slowly is disconnected', async (t) => {
  const slow = await demoServer({ timeouts: { connectionMs: 300 } });
  t.teardown(() => slow.close());
  const { port: p } = await listening(slow);
  const closed = await new Promise<boolean>((resolve) => {
    const socket = connect(p, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nHost: www.halden.co.uk\r\n'));
    socket.on('close', () => resolve(true));
    socket.on('error', () => resolve(true));
    setTimeout(() => resolve(false), 5000).unref();
  });
  t.ok(closed, 'the half-open request is dropped');
});

t.test('17. the revalidate endpoint refuses missing or wrong tokens and never logs the token', async (t) => {
  const token = 'revalidate-secret-0123456789abcdef';
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const server = await demoServer({ revalidateToken: token, logger: { level: 'trace', stream } });
  t.teardown(() => server.close());
  const post = (authorization?: string) =>
    server.inject({
      method: 'POST',
      url: '/cs/api/_revalidate',
      headers: { host: HOSTS.uk, ...(authorization ? { authorization } : {}) },
    });
  t.equal((await post()).statusCode, 401);
  t.equal((await post('Bearer wrong')).statusCode, 401);
  t.equal((await post(`Bearer ${token}x`)).statusCode, 401);
  t.equal((await post(`Bearer ${token}`)).statusCode, 200);
  t.notMatch(lines.join(''), token);
});

t.test('a keep-alive connection survives a refused request', async (t) => {
  const status = await new Promise<number>((resolve, reject) => {
    const req = httpRequest({ port, path: '/', headers: { host: HOSTS.uk } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
  t.equal(status, 200);
});

/** One product query per alias, all naming the same 50 ids by variable: the amplification attack. */
function amplified(aliases: number): { query: string; variables: { ids: string[]; l: string } } {
  const fields = Array.from({ length: aliases }, (_, i) => `a${i}:products(ids:$ids,locale:$l){...F}`);
  const ids = Array.from({ length: 50 }, (_, i) => String(4711 + i));
  return {
    query: `query($ids:[ID!]!,$l:String!){${fields.join(' ')}} fragment F on Product{id name price{amount currency}}`,
    variables: { ids, l: 'en-GB' },
  };
}

/** Milliseconds `/healthcheck` takes over its own connection. */
async function healthTime(port: number): Promise<number> {
  const started = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}/healthcheck`);
  await res.text();
  return performance.now() - started;
}

t.test('19. an amplified GraphQL query is refused before it runs, over POST, GET and WebSocket', async (t) => {
  const app = await demoServer();
  t.teardown(() => app.close());
  const { port } = await listening(app);
  const attack = amplified(330);
  t.ok(attack.query.length < 16_000, `the attack fits in ${attack.query.length} bytes`);

  const post = await fetch(`http://127.0.0.1:${port}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(attack),
  });
  const postBody = await post.text();
  t.equal(post.status, 400, 'POST: 400');
  t.ok(postBody.length < 2000, `POST: a short refusal (${postBody.length} bytes), not megabytes of products`);
  // Refused by the first bound it passes: text length, aliases, fields or cost (docs/decisions/0105).
  t.match(JSON.parse(postBody).errors[0].message, /too long|too many|too costly/i);
  t.notMatch(postBody, /at .*\.ts:\d+/, 'no stack');

  const small = amplified(100);
  const get = await fetch(
    `http://127.0.0.1:${port}/graphql?query=${encodeURIComponent(small.query)}&variables=${encodeURIComponent(JSON.stringify(small.variables))}`,
  );
  t.equal(get.status, 405, "GET: 405, as it is not one of the islands' queries");
  t.match(await get.text(), /Only the site's own queries are answered over GET/);

  // Over the socket: the same rule answers with an error message for that operation.
  const { default: WebSocket } = await import('ws');
  const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws');
  const messages: { type: string; id?: string; payload?: unknown }[] = [];
  socket.on('message', (data) => messages.push(JSON.parse(String(data))));
  await new Promise((resolve) => socket.once('open', resolve));
  socket.send(JSON.stringify({ type: 'connection_init' }));
  await until(() => messages.some((m) => m.type === 'connection_ack'), { what: 'the ack' });
  const slowest: number[] = [];
  for (let i = 0; i < 20; i++) {
    socket.send(JSON.stringify({ type: 'subscribe', id: `q${i}`, payload: attack }));
    if (i % 5 === 0) slowest.push(await healthTime(port));
  }
  await until(() => messages.filter((m) => m.type === 'error').length >= 20, { what: 'twenty refusals' });
  const errors = messages.filter((m) => m.type === 'error');
  t.equal(errors.length, 20, 'WebSocket: every one refused');
  t.match(JSON.stringify(errors[0]?.payload), /too long|too many|too costly/i);
  t.notOk(
    messages.some((m) => m.type === 'next'),
    'no product data sent',
  );
  socket.close();
  // The attack this guards against held every health check for seconds; a loaded CI machine adds
  // tens of milliseconds to any answer (102 ms was seen under stress -c 2). Under a second tells
  // the two apart without timing the machine.
  const median = [...slowest].sort((a, b) => a - b)[Math.floor(slowest.length / 2)] ?? Infinity;
  t.ok(median < 1000, `/healthcheck answered meanwhile in ${slowest.map(Math.round).join(', ')} ms`);
});

t.test('19. the largest query the site itself needs stays well inside the limit', async (t) => {
  const app = await demoServer();
  t.teardown(() => app.close());
  const res = await app.inject({
    method: 'POST',
    url: '/graphql',
    payload: amplified(1),
  });
  t.equal(res.statusCode, 200, '50 products with their prices in one query');
  t.equal(res.json().data.a0.length, 50);
});

t.test(
  '20. nesting limits and introspection: the same rules on every path; introspection only in development',
  async (t) => {
    const production = await demoServer();
    t.teardown(() => production.close());
    const introspection = '{ __schema { types { name } } }';
    const refused = await production.inject({ method: 'POST', url: '/graphql', payload: { query: introspection } });
    t.equal(refused.json().data, null, 'no schema in the answer');
    t.match(refused.json().errors[0].message, /introspection has been disabled/i);
    const typename = await production.inject({ method: 'POST', url: '/graphql', payload: { query: '{ __typename }' } });
    t.equal(typename.statusCode, 200, '__typename is not introspection');

    const dev = await demoServer({ dev: true });
    t.teardown(() => dev.close());
    const allowed = await dev.inject({ method: 'POST', url: '/graphql', payload: { query: introspection } });
    t.equal(allowed.statusCode, 200, 'development answers introspection');

    // Depth through fragments that refer to each other's fields is counted, not bypassed.
    const deep = `query { product(id: "4711", locale: "en-GB") { ...A } }
    fragment A on Product { pricingFootnotesContainer { pricingFootnotes { code formattedFootnote } } }`;
    const ok = await production.inject({ method: 'POST', url: '/graphql', payload: { query: deep } });
    t.equal(ok.statusCode, 200, 'the deepest real question (4 levels) is answered');
  },
);

/** A graphql-transport-ws socket that has been acknowledged, and the messages it received. */
async function dataSocket(port: number) {
  const { default: WebSocket } = await import('ws');
  const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws');
  const messages: { type: string; id?: string; payload?: unknown }[] = [];
  socket.on('message', (data) => messages.push(JSON.parse(String(data))));
  const opened = await new Promise<boolean>((resolve) => {
    socket.once('open', () => resolve(true));
    socket.once('error', () => resolve(false));
  });
  if (opened) {
    socket.send(JSON.stringify({ type: 'connection_init' }));
    await until(() => messages.some((m) => m.type === 'connection_ack'), { what: 'the acknowledgement' });
  }
  return { socket, messages, opened };
}

t.test('21. one socket holds at most 100 subscriptions: the 100th is served, the 101st refused', async (t) => {
  const app = await demoServer();
  t.teardown(() => app.close());
  const { port } = await listening(app);
  const { socket, messages } = await dataSocket(port);
  t.teardown(() => socket.close());
  const query = 'subscription($ids:[ID!]!){productUpdated(ids:$ids,locale:"en-GB"){id}}';
  for (let i = 1; i <= 101; i++)
    socket.send(JSON.stringify({ type: 'subscribe', id: `s${i}`, payload: { query, variables: { ids: ['4711'] } } }));
  await until(() => messages.some((m) => m.type === 'error'), { what: 'the refusal' });
  const refused = messages.filter((m) => m.type === 'error').map((m) => m.id);
  t.same(refused, ['s101'], 'only the one past the cap');
});

t.test('22. sockets are capped per client and in total; a refused upgrade gets 503', async (t) => {
  const app = await demoServer({ data: { socketLimits: { total: 5, perClient: 3 } } });
  t.teardown(() => app.close());
  const { port } = await listening(app);
  const open: Awaited<ReturnType<typeof dataSocket>>[] = [];
  for (let i = 0; i < 3; i++) open.push(await dataSocket(port));
  t.ok(
    open.every((s) => s.opened),
    'three sockets open',
  );
  const fourth = await dataSocket(port);
  t.notOk(fourth.opened, 'the fourth from the same address is refused');
  const refusal = await raw(port, [
    'GET /graphql HTTP/1.1',
    `Host: 127.0.0.1:${port}`,
    'Upgrade: websocket',
    'Connection: Upgrade',
    'Sec-WebSocket-Version: 13',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
  ]);
  t.equal(refusal.status, 503, 'the refusal is a 503');
  t.match(refusal.headers, /Retry-After: 10/);
  // The place is freed when the server sees the socket close: wait for that event, not for time.
  await new Promise((resolve) => {
    open[0]?.socket.once('close', resolve);
    open[0]?.socket.close();
  });
  let again = await dataSocket(port);
  for (let i = 0; i < 50 && !again.opened; i++) again = await dataSocket(port);
  t.ok(again.opened, 'a closed socket frees its place');
  for (const s of [...open, again]) s.socket.close();
});

t.test('23. ids a client invents do not grow the content cache; real entries are bounded too', async (t) => {
  const { createEmbeddedStore } = await import('../server/content/store.ts');
  const store = createEmbeddedStore({ dir: 'content', maxEntries: 50 });
  t.teardown(() => store.close());
  let found = 0;
  for (let i = 0; i < 5000; i++) {
    if (await store.getPage(String(900000 + i), 'en-GB')) found++;
    if (await store.getEntry('page_template', `x-${i}`, 'en-GB')) found++;
  }
  t.equal(found, 0, 'none of them exists');
  t.equal(store.cachedEntries(), 0, '10,000 misses, nothing kept');
  const templates = ['home', 'dishwasher', 'oven', 'kitchen', 'vacuum', 'cleaning', 'service', 'warranty'];
  for (const locale of ['en-GB', 'de-DE', 'fr-FR', 'it-IT', 'es-ES', 'nl-NL', 'de-CH', 'fr-CH'])
    for (const uid of templates) await store.getEntry('page_template', uid, locale);
  t.equal(store.cachedEntries(), 50, '64 real entries read, at most 50 kept');
  t.ok(await store.getEntry('page_template', 'home', 'en-GB'), 'an evicted entry is read again');
});

t.test('24. a request with two Host headers is refused with 400, never cached or resolved', async (t) => {
  const app = await demoServer();
  t.teardown(() => app.close());
  const { port } = await listening(app);
  for (const hosts of [
    [HOSTS.uk, 'evil.example'],
    ['evil.example', HOSTS.uk],
    [HOSTS.uk, HOSTS.uk],
  ]) {
    const res = await raw(port, ['GET / HTTP/1.1', ...hosts.map((h) => `Host: ${h}`)]);
    t.equal(res.status, 400, hosts.join(' + '));
    t.match(res.headers, /cache-control: no-store/i);
    t.match(res.headers, /x-content-type-options: nosniff/i, 'with the security headers');
    t.notMatch(res.body, /evil/, 'nothing of the request reflected');
  }
  t.equal((await raw(port, ['GET / HTTP/1.1', `Host: ${HOSTS.uk}`])).status, 200, 'one Host is served');
});
