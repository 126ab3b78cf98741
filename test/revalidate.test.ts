import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { demoServer, upstreamClient } from './helpers.ts';

/**
 * Revalidate goes through the content source's change hub, so it clears every cache whatever the
 * source: here the content-service client (CONTENT_SERVICE_URL), where the upstream's entries and
 * the rendered HTML would otherwise refresh only by TTL.
 */

const FIXTURE = 'test/fixtures/spec-site';
const SITES = join(FIXTURE, 'sites.json');
const TOKEN = 'revalidate-token-for-tests';
const PAGE = '/de/cs/kuehlen/kuehlbox-58';

t.test('revalidate with a content-service upstream clears its content and the rendered HTML', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-revalidate-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(join(FIXTURE, 'content'), dir, { recursive: true });

  // The upstream: another instance's /cs/api face over the copied folder.
  const origin = await demoServer({ sites: SITES, contentDir: dir, revalidateToken: TOKEN });
  t.teardown(() => origin.close());
  const address = await origin.listen({ port: 0, host: '127.0.0.1' });
  const content = upstreamClient(t, address);
  const app = await demoServer({ sites: SITES, contentDir: dir, content, revalidateToken: TOKEN });
  t.teardown(() => app.close());

  const title = async () => {
    const res = await app.inject({ url: PAGE, headers: { host: 'shop.nordlicht.ch' } });
    t.equal(res.statusCode, 200);
    return /<h1[^>]*>([^<]*)<\/h1>/.exec(res.body)?.[1];
  };
  const revalidate = (server: typeof app, token = TOKEN) =>
    server.inject({
      method: 'POST',
      url: '/cs/api/_revalidate',
      headers: { host: 'shop.nordlicht.ch', authorization: `Bearer ${token}` },
    });

  t.equal(await title(), 'Die Kühlbox');
  const file = join(dir, 'de-CH/pages/58.json');
  writeFileSync(file, readFileSync(file, 'utf8').replace('Die Kühlbox', 'Die neue Kühlbox'));
  t.equal((await revalidate(origin)).statusCode, 200, 'the upstream drops its own cache');
  t.equal(await title(), 'Die Kühlbox', 'before revalidate, the page and the upstream read are cached');

  t.equal((await revalidate(app, 'wrong-token-of-same-size!!')).statusCode, 401, 'a wrong token changes nothing');
  t.equal(await title(), 'Die Kühlbox');

  const res = await revalidate(app);
  t.equal(res.statusCode, 200, 'revalidate answers with CONTENT_SERVICE_URL set');
  t.same(res.json(), { revalidated: true });
  t.equal(await title(), 'Die neue Kühlbox', 'the next request reads the upstream again and renders anew');
});
