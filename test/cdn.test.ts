import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { demoServer, HOSTS } from './helpers.ts';

/** Pages carry the cache tags of the entries they were built from; a change is purged by its tags. */

const PRODUCT = '/cs/kitchen/aquasense-60-dishwasher-4711';
const TOKEN = 'revalidate-token-for-cdn-tests';

t.test('pages name their entries in Surrogate-Key and Cache-Tag; a revalidate POSTs the tags to purge', async (t) => {
  const purges: { authorization?: string; body: { tags: string[] } }[] = [];
  let heard: () => void = () => {};
  const cdn = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    request.on('end', () => {
      purges.push({ authorization: request.headers.authorization, body: JSON.parse(text) });
      response.end('{}');
      heard();
    });
  });
  cdn.listen(0, '127.0.0.1');
  t.teardown(() => cdn.close());
  await new Promise((resolve) => cdn.once('listening', resolve));
  const url = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}/purge`;
  const app = await demoServer({ cdnPurge: { url, token: 'cdn-secret' }, revalidateToken: TOKEN });
  t.teardown(() => app.close());

  for (const round of ['rendered', 'from the cache']) {
    const res = await app.inject({ url: PRODUCT, headers: { host: HOSTS.uk } });
    const keys = String(res.headers['surrogate-key']).split(' ');
    t.ok(keys.includes('page:4711') && keys.includes(`site:${HOSTS.uk}`), `${round}: page and storefront`);
    t.ok(
      keys.some((k) => k.startsWith('page_template:')),
      `${round}: its template`,
    );
    t.ok(keys.includes('application_configuration'), `${round}: the app configuration`);
    t.equal(res.headers['cache-tag'], keys.join(','), `${round}: the same tags for Cache-Tag`);
  }
  const preview = await app.inject({ url: `${PRODUCT}?live_preview=abc`, headers: { host: HOSTS.uk } });
  t.equal(preview.headers['surrogate-key'], undefined, 'nothing a CDN must not keep is tagged');

  const purged = new Promise<void>((resolve) => {
    heard = resolve;
  });
  await app.inject({
    method: 'POST',
    url: '/cs/api/_revalidate',
    headers: { host: HOSTS.uk, authorization: `Bearer ${TOKEN}` },
  });
  await purged;
  t.equal(purges.length, 1);
  t.equal(purges[0]?.authorization, 'Bearer cdn-secret');
  t.ok(purges[0]?.body.tags.includes(`site:${HOSTS.uk}`), 'a revalidate names no entry: every storefront is purged');
});
