import { Writable } from 'node:stream';
import Fastify, { LogController } from 'fastify';
import t, { type Test } from 'tap';
import { LIVE_PRICE_QUERY } from '../../islands/price/queries.ts';
import { loadCatalog } from './catalog.ts';
import { ERROR_LOG_LIMITS, LOGGED_MESSAGE_LENGTH } from './error-log.ts';
import { dataPlugin } from './plugin.ts';
import { MAX_QUERY_NESTING } from './query-nesting.ts';
import { overSocket, startDataServer, TEST_SECRET } from './test-server.ts';

/** What GraphQL over HTTP (and the socket) refuses to run or to send, over a real port. */

// biome-ignore lint/suspicious/noExplicitAny: the tests read GraphQL answers by path
type Answer = Record<string, any>;

async function post(url: string, body: unknown) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, bytes: Buffer.byteLength(text), body: JSON.parse(text) as Answer };
}

async function get(url: string, params: Record<string, string>, method = 'GET') {
  const response = await fetch(`${url}?${new URLSearchParams(params)}`, { method });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Answer) : {} };
}

const EVERYTHING = (ids: string[]) =>
  `{ products(ids: ${JSON.stringify(ids)}, locale: "en-GB") { id name locale price { amount currency formatted } availability version pricingFootnotesContainer { pricingFootnotes { code formattedFootnote } } } }`;

t.test("GET answers only the islands' own queries; anything else is 405, while POST runs it", async (t) => {
  const server = await startDataServer(t);
  const variables = JSON.stringify({ id: '4711', locale: 'en-GB' });
  const island = await get(server.url, { query: LIVE_PRICE_QUERY, variables });
  t.equal(island.status, 200);
  t.equal(island.body.data.product.id, '4711', "the live price's query");
  const respaced = await get(server.url, { query: LIVE_PRICE_QUERY.replaceAll(' { ', '{\n  '), variables });
  t.equal(respaced.status, 200, 'compared without ignored characters');

  const other = '{ products(ids: ["4711"], locale: "en-GB") { id } }';
  for (const method of ['GET', 'HEAD']) {
    const refused = await get(server.url, { query: other }, method);
    t.equal(refused.status, 405, method);
    t.equal(refused.headers.get('allow'), 'POST');
  }
  const refused = await get(server.url, { query: other });
  t.match(refused.body.errors[0], {
    message: /Only the site's own queries are answered over GET/,
    extensions: { code: 'GET_QUERY_NOT_ALLOWED' },
  });
  t.equal((await get(server.url, { query: '{ product(' })).status, 405, 'not even GraphQL');
  t.equal((await get(server.url, {})).status, 405, 'no query at all');
  t.same((await post(server.url, { query: other })).body, { data: { products: [{ id: '4711' }] } }, 'POST runs it');
});

t.test('a result past the response ceiling becomes an error, over HTTP and over the socket', async (t) => {
  const server = await startDataServer(t, { maxResponseBytes: 2_000 });
  const ids = server.catalog.ids();
  const small = await post(server.url, { query: EVERYTHING(ids.slice(0, 1)) });
  t.equal(small.body.data.products.length, 1, 'one product fits');
  const large = await post(server.url, { query: EVERYTHING(ids) });
  t.equal(large.status, 200);
  t.same(large.body.data, null);
  t.match(large.body.errors[0], {
    message: /Response too large: the result is \d+ bytes, at most 2000 are sent/,
    extensions: { code: 'RESPONSE_TOO_LARGE' },
  });
  t.ok(large.bytes < 2_000, `${large.bytes} bytes sent`);

  const socketAnswer = await overSocket(t, server, EVERYTHING(ids));
  t.notOk(socketAnswer.data, 'no data over the socket either');
  t.match(socketAnswer.errors[0], { message: /Response too large/, extensions: { code: 'RESPONSE_TOO_LARGE' } });
  t.equal((await overSocket(t, server, EVERYTHING(ids.slice(0, 1)))).data.products.length, 1);
});

t.test('a list nested 3000 deep is a clean 400 naming the limit, not a stack overflow', async (t) => {
  const server = await startDataServer(t);
  const deep = `${'['.repeat(3000)}"4711"${']'.repeat(3000)}`;
  const literal = await post(server.url, { query: `{ products(ids: ${deep}, locale: "en-GB") { id } }` });
  t.equal(literal.status, 400);
  t.match(literal.body.errors[0], {
    message: `Query nests more than ${MAX_QUERY_NESTING} levels of brackets (line 1, column 47)`,
    extensions: { code: 'QUERY_TOO_NESTED' },
  });
  t.notMatch(JSON.stringify(literal.body), /call stack/i);
  const variable = await post(server.url, {
    query: 'query ($ids: [ID!]!) { products(ids: $ids, locale: "en-GB") { id } }',
    variables: { ids: JSON.parse(deep) },
  });
  t.equal(variable.status, 400, 'in a variable too');
  t.notMatch(JSON.stringify(variable.body), /call stack/i);
  const inString = await post(server.url, { query: `{ product(id: "${'['.repeat(100)}", locale: "en-GB") { id } }` });
  t.same(inString.body, { data: { product: null } }, 'brackets inside a string do not count');

  for (const end of ['\r', '\r\n']) {
    const hidden = `{ products(ids: # a comment ends here${end}${deep}, locale: "en-GB") { id } }`;
    const answer = await post(server.url, { query: hidden });
    t.equal(answer.status, 400, `behind a comment ended by ${JSON.stringify(end)}`);
    t.match(answer.body.errors[0], { extensions: { code: 'QUERY_TOO_NESTED' } });
    t.notMatch(JSON.stringify(answer.body), /call stack/i);
  }
  const overSocketAnswer = await overSocket(t, server, `{ products(ids: ${deep}, locale: "en-GB") { id } }`);
  t.match(overSocketAnswer.errors[0], { message: /Query nests more than/, extensions: { code: 'QUERY_TOO_NESTED' } });
});

/** The data plugin on a real port with its log lines collected. */
async function loggedServer(t: Test) {
  const lines: Answer[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = Fastify({
    logger: { level: 'info', stream },
    logController: new LogController({ disableRequestLogging: true }),
  });
  await app.register(dataPlugin, { catalog: await loadCatalog('content'), tokenSecret: TEST_SECRET, demoChangeMs: 0 });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  const { port } = app.server.address() as { port: number };
  return { lines, url: `http://127.0.0.1:${port}/graphql` };
}

t.test('what a failed request logs is trimmed, and budgeted per address each minute', async (t) => {
  const { lines, url } = await loggedServer(t);
  const long = `nope${'x'.repeat(3000)}`;
  for (let i = 0; i < 15; i++) {
    const failed = await post(url, { query: `{ ${long}${i} }` });
    t.match(failed.body.errors[0].message, long, 'the client still gets its whole message');
  }
  const failures = lines.filter((line) => String(line.msg).startsWith('GraphQL request failed'));
  t.equal(failures.length, ERROR_LOG_LIMITS.perAddress + 1, 'ten lines, then one saying the rest are not logged');
  t.match(failures.at(-1), { msg: /further failures from this address .* are not logged/ });
  for (const line of failures.slice(0, -1)) {
    t.ok(line.errors[0].length <= LOGGED_MESSAGE_LENGTH + 1, `logged ${line.errors[0].length} of ${long.length + 30}`);
  }
});

t.test('a failed request logs one warn line with the operation and messages, and no stack', async (t) => {
  const { lines, url } = await loggedServer(t);
  const fields = Array.from({ length: 40 }, (_, i) => `nope${i}`).join(' ');
  const before = lines.length;
  const failed = await post(url, {
    query: `query Probe { ${fields} }`,
    operationName: 'Probe',
  });
  t.equal(failed.body.errors.length, 40, 'the client still gets every error');
  const logged = lines.slice(before);
  t.equal(logged.length, 1, 'one line for the request');
  const [line] = logged as [Answer];
  t.match(line, { level: 40, msg: 'GraphQL request failed', operationName: 'Probe', count: 40 });
  t.equal(line.errors.length, 10, 'at most ten messages');
  t.match(line.errors[0], /Cannot query field "nope0"/);
  t.notMatch(JSON.stringify(logged), /stack|\bat \//, 'no stack');
});
