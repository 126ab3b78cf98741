import Fastify from 'fastify';
import { createClient } from 'graphql-ws';
import t, { type Test } from 'tap';
import WebSocket, { WebSocketServer } from 'ws';
import { demoServer } from '../../test/helpers.ts';
import { until } from '../../test/until.ts';
import { formatPrice } from '../render/context.ts';
import { createCatalog } from './catalog.ts';
import { dataPlugin } from './plugin.ts';
import { type DataServer, startDataServer, TEST_SECRET } from './test-server.ts';

/** The embedded backend on a real port: HTTP queries, auth, limits, and the socket. */

const PRODUCT = `query ($id: ID!, $locale: String!) {
  product(id: $id, locale: $locale) { id name price { amount currency formatted } availability version
    pricingFootnotesContainer { pricingFootnotes { code formattedFootnote } } }
}`;

async function post(server: DataServer, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the tests read GraphQL answers by path
  const answer = (await response.json()) as Record<string, any>;
  return { status: response.status, headers: response.headers, body: answer };
}

/** Opens a raw graphql-transport-ws socket and resolves with how it closed. */
function closeOf(socket: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
}

function client(t: Test, server: DataServer, connectionParams?: Record<string, unknown>) {
  const c = createClient({ url: server.wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, connectionParams });
  t.teardown(() => c.dispose());
  return c;
}

t.test('anonymous queries read products per locale, formatted like the server render', async (t) => {
  const server = await startDataServer(t);
  const { status, body } = await post(server, { query: PRODUCT, variables: { id: '4712', locale: 'de-CH' } });
  t.equal(status, 200);
  t.match(body.data.product, {
    id: '4712',
    name: 'PureHeat 70 Backofen',
    price: { amount: 1049, currency: 'CHF', formatted: formatPrice('de-CH', 1049, 'CHF') },
    availability: 'IN_STOCK',
    version: 1,
    pricingFootnotesContainer: { pricingFootnotes: [{ code: 'RRP' }, { code: 'DELIVERY' }] },
  });
  const many = await post(server, {
    query: 'query { products(ids: ["6020", "nope", "4711"], locale: "en-GB") { id price { formatted } } }',
  });
  t.same(
    many.body.data.products,
    [{ id: '6020', price: { formatted: '£349' } }, null, { id: '4711', price: { formatted: '£779' } }],
    'in the order asked, null for an unknown id',
  );
});

t.test('a valid token is accepted; an invalid or foreign one is refused with 401', async (t) => {
  const server = await startDataServer(t);
  const query = { query: '{ product(id: "4711", locale: "en-GB") { id } }' };
  const withToken = await post(server, query, {
    authorization: `Bearer ${server.tokens.sign({ sub: 'v', roles: [] })}`,
  });
  t.equal(withToken.status, 200);
  t.equal(withToken.body.data.product.id, '4711');
  for (const authorization of ['Bearer not-a-token', `Bearer ${server.writerToken}x`, 'Basic dXNlcjpwYXNz']) {
    const refused = await post(server, query, { authorization });
    t.equal(refused.status, 401, authorization.slice(0, 12));
    t.equal(refused.headers.get('www-authenticate'), 'Bearer error="invalid_token"');
    t.same(refused.body, {
      data: null,
      errors: [{ message: 'Invalid token', extensions: { code: 'UNAUTHENTICATED' } }],
    });
  }
});

t.test('changing a product needs a token with catalog:write', async (t) => {
  const server = await startDataServer(t);
  const mutation = {
    query: 'mutation { updateProduct(id: "4711", locale: "en-GB", amount: 700) { price { formatted } version } }',
  };
  const anonymous = await post(server, mutation);
  t.equal(anonymous.body.errors[0].extensions.code, 'UNAUTHENTICATED');
  const reader = await post(server, mutation, {
    authorization: `Bearer ${server.tokens.sign({ sub: 'r', roles: [] })}`,
  });
  t.equal(reader.body.errors[0].extensions.code, 'FORBIDDEN');
  t.equal(server.catalog.get('4711', 'en-GB')?.price.amount, 779, 'refused changes change nothing');
  const writer = await post(server, mutation, { authorization: `Bearer ${server.writerToken}` });
  t.same(writer.body.data.updateProduct, { price: { formatted: '£700' }, version: 2 });
  const negative = await post(
    server,
    { query: 'mutation { updateProduct(id: "4711", locale: "en-GB", amount: -5) { id } }' },
    { authorization: `Bearer ${server.writerToken}` },
  );
  t.equal(negative.body.errors[0].extensions.code, 'BAD_USER_INPUT');
});

t.test('bad arguments are GraphQL errors, oversized bodies 413', async (t) => {
  const server = await startDataServer(t);
  const badLocale = await post(server, { query: '{ product(id: "4711", locale: "english") { id } }' });
  t.equal(badLocale.body.errors[0].extensions.code, 'BAD_USER_INPUT');
  const ids = JSON.stringify(Array.from({ length: 51 }, (_, i) => String(i)));
  const tooMany = await post(server, { query: `{ products(ids: ${ids}, locale: "en-GB") { id } }` });
  t.match(tooMany.body.errors[0].message, /At most 50 ids/);
  const syntax = await post(server, { query: '{ product(' });
  t.equal(syntax.status, 400, 'a query that does not parse is a 400 with GraphQL errors');
  t.ok(syntax.body.errors.length);
  const huge = await post(server, { query: `{ __typename }${' '.repeat(17 * 1024)}` });
  t.equal(huge.status, 413);
});

t.test('a subscription delivers changes of its products in its locale', async (t) => {
  const server = await startDataServer(t);
  const c = client(t, server);
  const updates = c.iterate<{ productUpdated: { id: string; price: { formatted: string }; version: number } }>({
    query: 'subscription { productUpdated(ids: ["4711", "4712"], locale: "en-GB") { id price { formatted } version } }',
  });
  // The subscription is live once the server holds its watcher.
  await until(() => server.catalog.watchers() > 0, { what: 'the watcher' });
  server.catalog.update({ id: '4711', locale: 'de-DE', amount: 1 });
  server.catalog.update({ id: '5810', locale: 'en-GB', amount: 1 });
  server.catalog.update({ id: '4712', locale: 'en-GB', amount: 899 });
  const first = await updates.next();
  t.same(first.value, { data: { productUpdated: { id: '4712', price: { formatted: '£899' }, version: 2 } } });
  await updates.return?.();
  await until(() => server.catalog.watchers() === 0, { what: 'the watcher released' });
  t.pass('completing the subscription releases its watcher on the server');
});

t.test('the socket takes the token from connection params: invalid closes 4403, valid connects', async (t) => {
  const server = await startDataServer(t);
  for (const params of [{ Authorization: 'Bearer forged' }, { authorization: 'Token x' }]) {
    const socket = new WebSocket(server.wsUrl, 'graphql-transport-ws');
    t.teardown(() => socket.terminate());
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'connection_init', payload: params }));
    t.same(await closeOf(socket), { code: 4403, reason: 'Forbidden' }, JSON.stringify(params));
  }
  const valid = client(t, server, { Authorization: `Bearer ${server.writerToken}` });
  const result = await valid
    .iterate({
      query: 'mutation { updateProduct(id: "6020", locale: "en-GB", availability: OUT_OF_STOCK) { availability } }',
    })
    .next();
  t.same(
    result.value,
    { data: { updateProduct: { availability: 'OUT_OF_STOCK' } } },
    "the socket's viewer is the token's",
  );
});

t.test('the server holds clients to the protocol', async (t) => {
  const server = await startDataServer(t);
  const legacy = new WebSocket(server.wsUrl, 'graphql-ws');
  const refusal = new Promise<Error>((resolve) => legacy.once('error', resolve));
  t.match(await refusal, { message: 'Server sent no subprotocol' }, 'the legacy subprotocol is never agreed');
  const none = new WebSocket(server.wsUrl);
  t.teardown(() => none.terminate());
  t.same(await closeOf(none), { code: 4406, reason: 'Subprotocol not acceptable' }, 'no subprotocol: 4406');

  const socket = new WebSocket(server.wsUrl, 'graphql-transport-ws');
  t.teardown(() => socket.terminate());
  await new Promise((resolve) => socket.once('open', resolve));
  socket.send(JSON.stringify({ type: 'connection_init' }));
  await new Promise((resolve) => socket.once('message', resolve));
  socket.send(JSON.stringify({ type: 'subscribe', id: '', payload: { query: '{ __typename }' } }));
  t.equal((await closeOf(socket)).code, 4400, 'a subscribe without an id is a bad request');
});

t.test('upgrades to other paths are left to other listeners, or refused when there are none', async (t) => {
  const app = Fastify();
  await app.register(dataPlugin, { catalog: createCatalog([]), tokenSecret: TEST_SECRET, demoChangeMs: 0 });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  const { port } = app.server.address() as { port: number };
  const stray = new WebSocket(`ws://127.0.0.1:${port}/elsewhere`);
  t.match(await new Promise((resolve) => stray.once('error', resolve)), { message: /socket hang up/ }, 'refused');

  // Another listener (Vite's HMR socket in development) keeps its own upgrades.
  const hmr = new WebSocketServer({ noServer: true });
  app.server.on('upgrade', (request, socket, head) => {
    if (request.url === '/hmr') hmr.handleUpgrade(request, socket, head, (ws) => ws.send('hmr'));
  });
  t.teardown(() => hmr.close());
  const dev = new WebSocket(`ws://127.0.0.1:${port}/hmr`);
  t.equal(String(await new Promise((resolve) => dev.once('message', resolve))), 'hmr');
  dev.close();
});

t.test('the site serves /graphql for any Host, next to the pages', async (t) => {
  const app = await demoServer({ data: { demoChangeMs: 0, tokenSecret: 'x'.repeat(32) } });
  t.teardown(() => app.close());
  const response = await app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { host: 'unknown.example', 'content-type': 'application/json' },
    payload: { query: '{ product(id: "4711", locale: "fr-CH") { price { currency } } }' },
  });
  t.equal(response.statusCode, 200);
  t.same(response.json(), { data: { product: { price: { currency: 'CHF' } } } });
  const elsewhere = await demoServer({ data: { url: 'https://data.example/graphql' } });
  t.teardown(() => elsewhere.close());
  const page = await elsewhere.inject({ method: 'POST', url: '/graphql', headers: { host: 'www.halden.co.uk' } });
  t.equal(page.statusCode, 404, 'with GRAPHQL_URL the site serves no backend of its own');
  const home = await elsewhere.inject({ url: '/', headers: { host: 'www.halden.co.uk' } });
  t.match(home.headers['content-security-policy'], /connect-src 'self' https:\/\/data\.example wss:\/\/data\.example/);
});
