import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { demoServer, HOSTS, upstreamClient } from './helpers.ts';

/**
 * Pages and an application configuration that depends on the visitor's cookie: a page built from
 * such an answer is private and never cached, and a visitor without the cookie never sees it.
 */

const PRODUCT = '/cs/kitchen/aquasense-60-dishwasher-4711';

t.test('a page built from a configuration made for a cookie is private and stays out of the caches', async (t) => {
  const origin = await demoServer();
  t.teardown(() => origin.close());
  const contentUrl = await origin.listen({ port: 0, host: '127.0.0.1' });
  let reads = 0;
  // The configuration service: the header title greets the visitor its `who` cookie names.
  const config = createServer((req, res) => {
    reads++;
    const who = /(?:^|;\s*)who=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    res.writeHead(200, { 'content-type': 'application/json', vary: 'Cookie' });
    res.end(
      JSON.stringify({
        globals: { dhfIsEnabled: true },
        navigation: { header: { title: who ? `Hello ${who}` : 'Halden', links: [] } },
      }),
    );
  });
  config.listen(0, '127.0.0.1');
  t.teardown(() => config.close());
  await new Promise((resolve) => config.once('listening', resolve));
  const content = upstreamClient(t, contentUrl, {
    appConfigUrl: `http://127.0.0.1:${(config.address() as AddressInfo).port}`,
    appConfigCookies: ['who'],
  });
  const app = await demoServer({ content });
  t.teardown(() => app.close());
  const get = (cookie?: string) =>
    app.inject({ url: PRODUCT, headers: { host: HOSTS.uk, ...(cookie ? { cookie } : {}) } });

  const ann = await get('who=Ann');
  t.equal(ann.statusCode, 200);
  t.match(ann.body, 'Hello Ann', 'Ann sees the header made for her');
  t.equal(ann.headers['cache-control'], 'private, no-store', 'her page is private');
  t.equal(ann.headers.etag, undefined, 'and not a cached copy');

  const anonymous = await get();
  t.notMatch(anonymous.body, 'Hello Ann', 'a visitor without the cookie never gets her page');
  t.match(anonymous.body, '>Halden<');
  const bob = await get('who=Bob');
  t.match(bob.body, 'Hello Bob', 'another cookie, another header: nothing of Ann’s is reused');
  t.notMatch(bob.body, 'Hello Ann');
  t.equal(bob.headers['cache-control'], 'private, no-store');

  // Cookies the configuration was not said to depend on split nothing (issue 32, finding 10): not
  // forwarded, no read of their own, the page stays shared and cached.
  const before = reads;
  for (let i = 0; i < 5; i++) {
    const junk = await get(`junk=${i}; _ga=GA1.2.${i}`);
    t.equal(junk.statusCode, 200);
    t.match(junk.body, '>Halden<', 'the shared header');
    t.match(junk.headers['cache-control'], /^public/, `a random cookie (${i}) does not make the page private`);
  }
  t.ok(reads - before <= 1, `one configuration read at most for five distinct random cookies (${reads - before})`);
  const annAgain = await get('junk=9; who=Ann');
  t.match(annAgain.body, 'Hello Ann', 'the cookie that matters still does, beside any other');
});

t.test('a Vitrine content service as the source: any cookie leaves pages shared and cached', async (t) => {
  // The other Vitrine serves from its embedded store, which has one answer for everybody; it reads
  // the storefront from the X-Forwarded-Host its client sends.
  const origin = await demoServer({ trustProxy: '127.0.0.1' });
  t.teardown(() => origin.close());
  const contentUrl = await origin.listen({ port: 0, host: '127.0.0.1' });
  const own = await origin.inject({ url: '/_applicationConfiguration?language=en-GB', headers: { host: HOSTS.uk } });
  t.equal(own.statusCode, 200);
  t.notMatch(String(own.headers.vary ?? ''), /cookie/i, 'its answer does not vary on a cookie it ignores');
  const content = upstreamClient(t, contentUrl);
  const app = await demoServer({ content });
  t.teardown(() => app.close());
  await app.inject({ url: PRODUCT, headers: { host: HOSTS.uk } });
  for (let i = 0; i < 5; i++) {
    const res = await app.inject({ url: PRODUCT, headers: { host: HOSTS.uk, cookie: `visitor=${i}` } });
    t.equal(res.statusCode, 200);
    t.match(res.headers['cache-control'], /^public/, `cookie ${i}: the page stays public`);
    t.ok(res.headers.etag, `cookie ${i}: served from the HTML cache`);
  }
});
