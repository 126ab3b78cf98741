import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import WebSocket from 'ws';
import { startDataServer } from '../../server/data/test-server.ts';
import { until } from '../../test/until.ts';
import { createDataClient, type DataClientOptions } from './client.ts';
import { GraphQLHttpError, postGraphQL } from './http.ts';
import { Query } from './query.ts';
import { createResultCache } from './result-cache.ts';
import type { TokenStore } from './token.ts';

/** The islands' data client over HTTP and the socket, against the embedded backend on a real port. */

const PRICE = 'query ($id: ID!) { product(id: $id, locale: "en-GB") { price { amount } } }';

function memoryTokens(initial: string | null = null): TokenStore & { value: string | null } {
  return {
    value: initial,
    get() {
      return this.value;
    },
    set(token) {
      this.value = token;
    },
    clear() {
      this.value = null;
    },
  };
}

function dataClient(t: Test, options: DataClientOptions) {
  const logged: string[] = [];
  const client = createDataClient({
    ...options,
    realtime: { webSocketImpl: WebSocket, log: (m) => logged.push(m), retryBaseMs: 10, jitterMinMs: 1, jitterMaxMs: 2 },
  });
  t.teardown(() => client.dispose());
  return { client, logged };
}

t.test('queries go by POST with the bearer token when there is one, anonymously otherwise', async (t) => {
  const server = await startDataServer(t);
  const tokens = memoryTokens();
  const { client } = dataClient(t, { endpoint: server.url, tokens });
  t.same(await client.query({ query: PRICE, variables: { id: '4711' } }), {
    data: { product: { price: { amount: 779 } } },
  });
  const change = 'mutation { updateProduct(id: "4711", locale: "en-GB", amount: 700) { price { amount } } }';
  const anonymous = await client.query({ query: change });
  t.equal(anonymous.errors?.[0]?.extensions?.code, 'UNAUTHENTICATED', 'anonymous: no header was sent');
  tokens.set(server.writerToken);
  t.same((await client.query({ query: change })).data, { updateProduct: { price: { amount: 700 } } });
  tokens.set('forged');
  await t.rejects(client.query({ query: PRICE, variables: { id: '4711' } }), {
    name: 'GraphQLHttpError',
    code: 'HTTP_STATUS',
    method: 'POST',
    url: server.url,
    status: 401,
    statusText: 'Unauthorized',
    data: { errors: [{ extensions: { code: 'UNAUTHENTICATED' } }] },
  });
});

t.test('a GraphQL POST is never retried: every retry status fails once, naming the call', async (t) => {
  const seen: number[] = [];
  const http = createServer((req, res) => {
    const status = Number(req.url?.slice(1));
    seen.push(status);
    res.writeHead(status).end('busy');
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => http.close(() => resolve())));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  for (const status of [408, 409, 425, 429, 500, 502, 503, 504]) {
    const error = await postGraphQL(`${origin}/${status}`, { query: '{ a }' }).catch((e: unknown) => e);
    t.ok(error instanceof GraphQLHttpError);
    t.match(error, { code: 'HTTP_STATUS', method: 'POST', url: `${origin}/${status}`, status, data: 'busy' });
    t.equal(
      (error as GraphQLHttpError).message,
      `POST ${origin}/${status} ${status} ${(error as GraphQLHttpError).statusText}`,
    );
  }
  t.same(seen, [408, 409, 425, 429, 500, 502, 503, 504], 'one request each');
  await t.rejects(postGraphQL('http://127.0.0.1:1/graphql', { query: '{ a }' }), { code: 'HTTP_NETWORK' });
});

t.test('the result cache is opt-in: no-cache by default, cache-first when asked', async (t) => {
  const server = await startDataServer(t);
  const cache = createResultCache();
  const { client } = dataClient(t, { endpoint: server.url, tokens: memoryTokens(), cache });
  const request = { query: PRICE, variables: { id: '5810' } };
  await client.query(request, { fetchPolicy: 'cache-first' });
  server.catalog.update({ id: '5810', locale: 'en-GB', amount: 600 });
  t.same((await client.query(request, { fetchPolicy: 'cache-first' })).data, { product: { price: { amount: 649 } } });
  t.same((await client.query(request)).data, { product: { price: { amount: 600 } } }, 'no-cache by default');
  client.resetStore();
  t.same((await client.query(request, { fetchPolicy: 'cache-first' })).data, { product: { price: { amount: 600 } } });
});

t.test('login and logout restart the channel with 4205 and reset the store unless skipped', async (t) => {
  const server = await startDataServer(t);
  const tokens = memoryTokens();
  const cache = createResultCache();
  const { client, logged } = dataClient(t, { endpoint: server.url, tokens, cache });
  client.subscribe(
    { query: 'subscription { productUpdated(ids: ["4711"], locale: "en-GB") { id } }' },
    {
      next: () => {},
      error: () => {},
      complete: () => {},
    },
  );
  await until(() => client.realtime.status() === 'connected', { what: 'the channel' });
  let fetches = 0;
  const query = new Query(async () => {
    fetches++;
    return { data: fetches };
  }, {});
  client.track(query as unknown as Query<unknown, never>);
  cache.set('k', { data: 1 });

  client.login(server.writerToken);
  t.equal(tokens.value, server.writerToken, 'login stores the token');
  // Resubscribed on a second connection: the restart is complete.
  await until(() => server.upgrades() === 2 && server.catalog.watchers() === 1, { what: 'the restart' });
  t.same(logged, ['Socket closed with event 4205 Client Restart']);
  t.equal(fetches, 1, 'tracked queries are refetched');
  t.equal(cache.get('k'), undefined, 'cached results are forgotten');

  cache.set('k', { data: 2 });
  client.logout({ skipReset: true });
  t.equal(tokens.value, null, 'logout clears the token');
  await until(() => server.upgrades() === 3 && server.catalog.watchers() === 1, { what: 'the second restart' });
  t.equal(logged[1], 'Socket closed with event 4205 Client Restart');
  t.equal(fetches, 1, 'skipReset: nothing refetched');
  t.same(cache.get('k'), { data: 2 }, 'skipReset: the cache stays');
});
