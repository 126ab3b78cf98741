import type { FastifyInstance } from 'fastify';
import t from 'tap';
import { get as getOn } from './e2e/server.ts';
import { demoServer, HOSTS, testAssets } from './helpers.ts';

/**
 * The build endpoints over a real socket, as the island runtime's build-update check reads them:
 * `builds/latest.json` names the serving build, `builds/meta/{id}.json` is that build's route-rules
 * manifest for the requesting storefront, and only the current build has one.
 */
let app: FastifyInstance;
let port: number;
t.before(async () => {
  app = await demoServer();
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
});
t.teardown(() => app.close());

const get = (host: string, path: string) => getOn(port, host, path);

t.test('latest.json names the serving build and is revalidated on every check', async (t) => {
  const res = await get(HOSTS.ch, '/builds/latest.json');
  t.equal(res.status, 200);
  t.match(res.headers['content-type'], /^application\/json/);
  t.equal(res.headers['cache-control'], 'no-cache');
  t.same(JSON.parse(res.body), testAssets.build);
});

t.test(
  "meta/{id}.json is the current build's route rules for the requesting storefront, cached for good",
  async (t) => {
    const { id } = testAssets.build;
    const ch = await get(HOSTS.ch, `/builds/meta/${id}.json`);
    t.equal(ch.status, 200);
    t.equal(ch.headers['cache-control'], 'public, max-age=31536000, immutable');
    const body = JSON.parse(ch.body);
    t.equal(body.id, id);
    t.equal(body.timestamp, testAssets.build.timestamp);
    t.ok(Object.keys(body.routeRules).length > 0, 'the Swiss storefront has route rules in the demo');
    const uk = JSON.parse((await get(HOSTS.uk, `/builds/meta/${id}.json`)).body);
    t.notSame(uk.routeRules, body.routeRules, 'each storefront gets its own rules');
  },
);

t.test('any other build id is a 404 that is not cached', async (t) => {
  for (const file of ['000000000000.json', `${testAssets.build.id}`, `${testAssets.build.id}.js`, '..%2Flatest.json']) {
    const res = await get(HOSTS.ch, `/builds/meta/${file}`);
    t.equal(res.status, 404, file);
    t.equal(res.headers['cache-control'], 'no-store', file);
  }
});

t.test('the speculation rules answer for any host', async (t) => {
  const res = await get('localhost', '/builds/speculation-rules.json');
  t.equal(res.status, 200);
  t.match(res.headers['content-type'], /^application\/speculationrules\+json/);
  t.ok(Array.isArray(JSON.parse(res.body).prefetch));
});
