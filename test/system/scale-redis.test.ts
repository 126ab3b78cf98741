import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { createClient } from 'graphql-ws';
import t from 'tap';
import WebSocket from 'ws';
import { CATALOG_WRITE, createTokens } from '../../server/data/auth.ts';
import { Metrics } from '../../server/observability/metrics.ts';
import { DRAFT_TTL_S, redisDraftStore, THREADS_TTL_S } from '../../server/shared/draft-store.ts';
import { SharedRedis } from '../../server/shared/redis.ts';
import { freePort } from '../e2e/server.ts';
import { demoServer, previewWithDrafts } from '../helpers.ts';
import { until } from '../until.ts';
import { needs, REDIS } from './parts.ts';

/**
 * Three instances sharing Debian's redis-server: a revalidate on one reaches all within a second,
 * a page rendered by one is served by the others, a price changed on one reaches a subscriber on
 * another, and with Redis gone every page is still served, then sharing resumes when it is back.
 */

const TOKEN = 'revalidate-token-for-scale-tests';
const SECRET = 'scale-test-secret-that-is-long-enough-0123';
const PRODUCT = '/cs/kitchen/aquasense-60-dishwasher-4711';
const PAGE_FILE = 'en-GB/pages/4711.json';
const UK = 'uk.localhost';
const DRAFT_TOKEN = 'draft-token-for-the-scale-tests';
const DRAFT_URL = '/cs/api/contentstack/_drafts/scale-hash-0001/en-GB/pages/4711';

/** How long a relayed change may take to reach every instance: well under any cache lifetime here. */
const PROPAGATION_BOUND_MS = 5_000;

/** Waits for `check` and says how long that took (ms). */
async function timed(what: string, check: () => boolean | Promise<boolean>): Promise<number> {
  const started = Date.now();
  await until(check, { what, timeout: 10_000, every: 10 });
  return Date.now() - started;
}

function startRedis(port: number): ChildProcess {
  return spawn(
    '/usr/bin/redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
}

interface Instance {
  app: FastifyInstance;
  origin: string;
  metrics: Metrics;
}

const title = async (instance: Instance) => {
  const res = await instance.app.inject({ url: PRODUCT, headers: { host: UK } });
  return { status: res.statusCode, h1: /<h1[^>]*>([^<]*)<\/h1>/.exec(res.body)?.[1] };
};

const sharedState = async (instance: Instance) =>
  ((await instance.app.inject({ url: '/readyz', headers: { host: UK } })).json() as { checks: { shared?: string } })
    .checks.shared;

const renders = async (instance: Instance) => {
  const text = (await instance.metrics.text()).body;
  return Number(/^vitrine_render_duration_seconds_count\{mode="cached"\} (\d+)/m.exec(text)?.[1] ?? 0);
};

t.test('instances share invalidation, pages and price changes through Redis, and survive without it', async (t) => {
  if (!needs(t, [REDIS])) return;
  const redisPort = await freePort();
  let redis = startRedis(redisPort);
  t.teardown(() => redis.kill('SIGKILL'));

  const dir = mkdtempSync(join(tmpdir(), 'vitrine-scale-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  cpSync('content', dir, { recursive: true });

  // One purge endpoint for all three: a change is purged by the instance that announced it, once.
  let purges = 0;
  const cdn = createServer((request, response) => {
    purges++;
    request.resume();
    response.end();
  });
  cdn.listen(0, '127.0.0.1');
  t.teardown(() => cdn.close());
  await once(cdn, 'listening');
  const cdnPurge = { url: `http://127.0.0.1:${(cdn.address() as AddressInfo).port}/` };

  const instances: Instance[] = [];
  for (let i = 0; i < 3; i++) {
    const metrics = new Metrics();
    const app = await demoServer({
      contentDir: dir,
      redisUrl: `redis://127.0.0.1:${redisPort}`,
      revalidateToken: TOKEN,
      metrics,
      cdnPurge,
      rateLimits: { webhook: 2 },
      preview: previewWithDrafts(DRAFT_TOKEN),
      data: { tokenSecret: SECRET, demoChangeMs: 0 },
    });
    t.teardown(() => app.close());
    instances.push({ app, metrics, origin: await app.listen({ port: 0, host: '127.0.0.1' }) });
  }
  const [a, b, c] = instances as [Instance, Instance, Instance];
  for (const instance of instances)
    await until(async () => (await sharedState(instance)) === 'ok', { what: 'Redis reachable', timeout: 10_000 });

  // One render for all three: the first instance renders, the others take its page from Redis.
  const first = await Promise.all(instances.map(title));
  t.same(
    first.map((r) => r.status),
    [200, 200, 200],
  );
  const rendered = (await Promise.all(instances.map(renders))).reduce((sum, n) => sum + n, 0);
  t.equal(rendered, 1, 'concurrent misses on three instances render the page once');

  // Rate-limit counters are shared: two webhook calls on A and B use up C's allowance too.
  const webhook = (instance: Instance) =>
    instance.app.inject({ method: 'POST', url: '/cs/api/_webhook/contentstack', headers: { host: UK }, payload: {} });
  t.not((await webhook(a)).statusCode, 429);
  t.not((await webhook(b)).statusCode, 429);
  t.equal((await webhook(c)).statusCode, 429, 'the third call, on another instance, is over the limit');

  // A change announced on A reaches B and C within a second.
  const file = join(dir, PAGE_FILE);
  const original = readFileSync(file, 'utf8');
  const heading = first[0]?.h1 ?? '';
  writeFileSync(file, original.replace(`"${heading}"`, `"${heading} (new)"`));
  t.equal((await title(b)).h1, heading, 'before revalidate, B serves its cached page');
  const revalidate = await a.app.inject({
    method: 'POST',
    url: '/cs/api/_revalidate',
    headers: { host: UK, authorization: `Bearer ${TOKEN}` },
  });
  t.equal(revalidate.statusCode, 200);
  const took = await timed('the change on every instance', async () => {
    const all = await Promise.all(instances.map(title));
    return all.every((r) => r.h1 === `${heading} (new)`);
  });
  // Bounded generously: the figure is printed (0.4 s beside one CI run), the bound only tells
  // "relayed" from "expired by TTL". A 1 s bound failed at 1.2 s under two parallel CI runs.
  t.ok(took < PROPAGATION_BOUND_MS, `every instance serves the new content (${took} ms)`);
  await until(() => purges > 0, { what: 'the purge' });
  t.equal(purges, 1, 'the CDN is asked to purge once, by the instance the change was announced on');

  // A price changed through A reaches a subscriber connected to C.
  const socketOf = (origin: string) =>
    class extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers: { host: `${UK}:${new URL(origin).port}` } });
      }
    };
  const client = createClient({
    url: `${c.origin.replace('http', 'ws')}/graphql`,
    webSocketImpl: socketOf(c.origin),
    retryAttempts: 0,
  });
  t.teardown(() => client.dispose());
  const updates = client.iterate<{ productUpdated: { price: { amount: number } } }>({
    query: 'subscription { productUpdated(ids: ["4711"], locale: "en-GB") { price { amount } } }',
  });
  const token = createTokens(SECRET).sign({ sub: 'scale', roles: [CATALOG_WRITE] });
  const next = updates.next();
  // The subscription is live once C has a watcher; repeat the change until it is heard.
  let amount = 700;
  let heard: Awaited<typeof next> | undefined;
  void next.then((result) => {
    heard = result;
  });
  await until(
    async () => {
      if (heard) return true;
      amount++;
      await a.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { host: UK, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: { query: `mutation { updateProduct(id: "4711", locale: "en-GB", amount: ${amount}) { version } }` },
      });
      return false;
    },
    { what: 'the price change heard on C', timeout: 10_000, every: 100 },
  );
  t.ok((heard?.value?.data?.productUpdated.price.amount ?? 0) > 700, 'the subscriber on C hears the price set on A');
  await updates.return?.();

  // A draft saved through A previews through B.
  const draft = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const saveDraft = (instance: Instance, title: string) =>
    instance.app.inject({
      method: 'PUT',
      url: DRAFT_URL,
      headers: { host: UK, authorization: `Bearer ${DRAFT_TOKEN}`, 'content-type': 'application/json' },
      payload: { ...draft, title, page_title: title },
    });
  t.equal((await saveDraft(a, 'Draft through A')).statusCode, 201);
  const preview = await b.app.inject({ url: `${PRODUCT}?live_preview=scale-hash-0001`, headers: { host: UK } });
  t.match(preview.body, 'Draft through A', 'B previews the draft saved through A');
  t.notMatch((await title(b)).h1, 'Draft through A', 'visitors of B still see the published page');

  // Redis gone: every page is still served, and readiness says so without refusing traffic.
  redis.kill('SIGKILL');
  await new Promise((resolve) => redis.once('exit', resolve));
  for (const instance of instances) {
    await until(async () => (await sharedState(instance)) === 'unreachable', {
      what: 'Redis reported unreachable',
      timeout: 10_000,
    });
    t.equal((await title(instance)).status, 200, 'served from memory while Redis is down');
    const ready = await instance.app.inject({ url: '/readyz', headers: { host: UK } });
    t.equal(ready.statusCode, 200, 'still ready: Redis is detail');
  }
  const offline = await b.app.inject({ url: `${PRODUCT}?live_preview=scale-hash-0001`, headers: { host: UK } });
  t.equal(offline.statusCode, 200, 'a preview without Redis shows published content');
  const refused = await saveDraft(a, 'Draft while Redis is down');
  t.equal(refused.statusCode, 503, 'saving a draft without Redis is a 503 the editor can retry');

  // Redis back: sharing resumes without a restart.
  redis = startRedis(redisPort);
  for (const instance of instances)
    await until(async () => (await sharedState(instance)) === 'ok', { what: 'Redis back', timeout: 10_000 });
  writeFileSync(file, original.replace(`"${heading}"`, `"${heading} (again)"`));
  await a.app.inject({
    method: 'POST',
    url: '/cs/api/_revalidate',
    headers: { host: UK, authorization: `Bearer ${TOKEN}` },
  });
  const again = await timed('the change after recovery', async () => {
    const all = await Promise.all(instances.map(title));
    return all.every((r) => r.h1 === `${heading} (again)`);
  });
  t.ok(again < PROPAGATION_BOUND_MS, `invalidation works again after Redis is back (${again} ms)`);
});

t.test(
  'a frozen Redis costs at most a command timeout: pages, GraphQL, drafts and previews answer, /readyz says slow',
  async (t) => {
    if (!needs(t, [REDIS])) return;
    const redisPort = await freePort();
    const redis = startRedis(redisPort);
    t.teardown(() => redis.kill('SIGKILL'));
    const warnings: string[] = [];
    const logger = {
      level: 'warn',
      stream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          warnings.push(String(JSON.parse(chunk.toString()).msg));
          done();
        },
      }),
    };
    const metrics = new Metrics();
    const app = await demoServer({
      redisUrl: `redis://127.0.0.1:${redisPort}`,
      metrics,
      logger,
      preview: previewWithDrafts(DRAFT_TOKEN),
      data: { tokenSecret: SECRET, demoChangeMs: 0 },
    });
    t.teardown(() => app.close());
    const origin = await app.listen({ port: 0, host: '127.0.0.1' });
    const instance = { app, origin, metrics };
    await until(async () => (await sharedState(instance)) === 'ok', { what: 'Redis reachable' });
    const hits = async () =>
      Number(/^vitrine_html_cache_lookups_total\{result="hit"\} (\d+)/m.exec((await metrics.text()).body)?.[1] ?? 0);
    const KEPT = '/cs/kitchen-appliances-200';
    const kept = () => app.inject({ url: KEPT, headers: { host: UK } });
    t.equal((await kept()).statusCode, 200, 'a page rendered and kept before the freeze');
    t.same(
      warnings.filter((w) => /unreachable/i.test(w)),
      [],
      'no "unreachable" warning for a Redis that was reachable all along',
    );

    // Frozen, not dead: the connection stays open and nothing answers (as in a partition).
    redis.kill('SIGSTOP');
    t.teardown(() => redis.kill('SIGCONT'));
    // Far below the 30 s a request waited before; a loaded machine still answers well within it.
    const answered = async (path: string, init: RequestInit = {}) => {
      const res = await fetch(`${origin}${path}`, {
        ...init,
        headers: { host: UK, ...(init.headers as Record<string, string>) },
        signal: AbortSignal.timeout(8_000),
      });
      await res.arrayBuffer();
      return res.status;
    };
    const frozenAt = Date.now();
    t.equal(await answered(`${PRODUCT}?frozen=1`), 200, 'an uncached page');
    t.comment(`the first uncached page with Redis frozen took ${Date.now() - frozenAt} ms`);
    t.equal(await answered('/'), 200, 'another uncached page');
    t.equal(
      await answered('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      }),
      200,
      'a GraphQL POST (its rate limit is counted in Redis)',
    );
    t.equal(await answered(`${PRODUCT}?live_preview=scale-hash-0001`), 200, 'a preview shows published content');
    t.equal(
      await answered(DRAFT_URL, {
        method: 'PUT',
        headers: { authorization: `Bearer ${DRAFT_TOKEN}`, 'content-type': 'application/json' },
        body: readFileSync(join('content', PAGE_FILE), 'utf8'),
      }),
      503,
      'saving a draft is a 503 the editor can retry',
    );
    await until(async () => (await sharedState(instance)) === 'slow', { what: '/readyz reports the slow tier' });
    const ready = await app.inject({ url: '/readyz', headers: { host: UK } });
    t.equal(ready.statusCode, 200, 'still ready: Redis is detail');

    redis.kill('SIGCONT');
    await until(async () => (await sharedState(instance)) === 'ok', { what: 'Redis back' });
    t.equal(await answered(`${PRODUCT}?frozen=2`), 200);
    // The subscription outlived the freeze, so no message was missed: nothing is cleared (a stall of
    // this process's own event loop, taken for a slow Redis, must not empty every cache).
    const before = await hits();
    t.equal((await kept()).statusCode, 200);
    t.equal(await hits(), before + 1, 'the page kept before the freeze is still a hit');
  },
);

t.test('drafts and comment threads in Redis expire, and each write starts their time again', async (t) => {
  if (!needs(t, [REDIS])) return;
  const redisPort = await freePort();
  const redis = startRedis(redisPort);
  t.teardown(() => redis.kill('SIGKILL'));
  const shared = new SharedRedis(`redis://127.0.0.1:${redisPort}`, { info: () => {}, warn: () => {} });
  t.teardown(() => shared.close());
  await until(() => shared.up, { what: 'Redis reachable' });
  const store = redisDraftStore(shared);
  await store.writeThreads('en-GB', '4711', '[]');
  const key = 'vitrine:threads:en-GB:4711';
  t.equal(await shared.commands.ttl(key), THREADS_TTL_S, 'a thread written now lives 30 days');
  await shared.commands.expire(key, 60);
  await store.writeThreads('en-GB', '4711', '[{"id":"t1"}]');
  t.equal(await shared.commands.ttl(key), THREADS_TTL_S, 'a write refreshes it');
  await store.write('ttl-hash-0001', { kind: 'page', locale: 'en-GB', uuid: '4711' }, '{}');
  t.equal(await shared.commands.ttl('vitrine:drafts:ttl-hash-0001'), DRAFT_TTL_S, 'a draft lives a week');
});
