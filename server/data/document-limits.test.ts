import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import t from 'tap';
import { LIVE_PRICE_QUERY } from '../../islands/price/queries.ts';
import { MAX_ALIASES, MAX_DIRECTIVES, MAX_FIELDS, MAX_QUERY_LENGTH, MAX_TOKENS } from './document-limits.ts';
import { fragmentChain } from './test-documents.ts';
import { overSocket, startDataServer } from './test-server.ts';

/** The document is bounded before anything walks it, over HTTP and over the socket, on a real port. */

// biome-ignore lint/suspicious/noExplicitAny: the tests read GraphQL answers by path
type Answer = Record<string, any>;

async function post(url: string, query: string, variables?: Record<string, unknown>) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as Answer };
}

const product = (selection: string) => `{ product(id: "4711", locale: "en-GB") { ${selection} } }`;

t.test('a chain of fragments spreading the next twice is refused at once, over HTTP and the socket', async (t) => {
  const server = await startDataServer(t);
  // 40 levels in under 2 KB: walked per spread, 2^40 visits (the finding's 770 bytes blocked for 12 s).
  const chain = fragmentChain(40);
  const answer = await post(server.url, chain);
  t.equal(answer.status, 400);
  t.match(answer.body.errors[0], { message: 'Unknown fragment "Unknown".' });
  const socketAnswer = await overSocket(t, server, chain);
  t.match(socketAnswer.errors[0], { message: 'Unknown fragment "Unknown".' });
});

t.test('past each bound the document is a 400 naming it; the island query is far within all', async (t) => {
  const server = await startDataServer(t);
  const island = await post(server.url, LIVE_PRICE_QUERY, { id: '4711', locale: 'en-GB' });
  t.equal(island.status, 200, 'the live-price query');
  const cases: [string, string, RegExp][] = [
    ['long', product(`id ${' '.repeat(MAX_QUERY_LENGTH)}`), /Query too long/],
    ['tokens', `query ($a: [Int] = [${'1 '.repeat(MAX_TOKENS)}]) { __typename }`, /more that 1000 tokens/],
    ['fields', product('id '.repeat(MAX_FIELDS + 1)), new RegExp(`too many fields: at most ${MAX_FIELDS}`)],
    ['aliases', product(Array.from({ length: MAX_ALIASES + 1 }, (_, i) => `a${i}: id`).join(' ')), /aliases/],
    ['directives', product('id @include(if: true) '.repeat(MAX_DIRECTIVES + 1)), /directives/],
    ['json', '{"kind":"Document","definitions":[]}', /not GraphQL text/],
    ['json string', '"query"', /not GraphQL text/],
  ];
  for (const [name, query, message] of cases) {
    const answer = await post(server.url, query);
    t.equal(answer.status, 400, `${name}: 400`);
    t.match(answer.body.errors[0].message, message, name);
    const socketAnswer = await overSocket(t, server, query);
    t.match(socketAnswer.errors?.[0]?.message, message, `${name} over the socket`);
  }
  const within = product('id '.repeat(MAX_FIELDS - 1));
  t.equal((await post(server.url, within)).status, 200, 'just within the field bound');
});

t.test('the same field 480 times (cost 960, once allowed) is refused before validation', async (t) => {
  const server = await startDataServer(t);
  const answer = await post(server.url, product('id '.repeat(480)));
  t.equal(answer.status, 400);
  t.same(
    answer.body.errors.map((e: Answer) => e.extensions?.code),
    ['TOO_MANY_FIELDS'],
    'one error, from the bound alone',
  );
});

t.test('many distinct large documents leave the heap bounded: the parse caches hold few, small ASTs', async (t) => {
  const server = await startDataServer(t);
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  // At the bounds: a default list value of ~980 items, every document distinct. Valid ones (their
  // default too long for the resolver, which answers with an error) and refused ones (an unknown
  // field) fill mercurius's two caches.
  const documents = (i: number, valid: boolean) =>
    `query Q${i} ($a: [ID!] = [${`${i} `.repeat(MAX_TOKENS - 30)}]) { products(ids: $a, locale: "en-GB") { ${valid ? 'id' : 'nope'} } }`;
  const send = async (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const answer = await post(server.url, documents(i, i % 2 === 0));
      if (answer.status !== (i % 2 === 0 ? 200 : 400)) t.fail(`document ${i}: ${answer.status}`, answer.body);
    }
    gc();
    return process.memoryUsage().heapUsed;
  };
  gc();
  const start = process.memoryUsage().heapUsed;
  // The first 300 fill both caches (up to 128 documents each); the next 300 only replace what they hold.
  const full = await send(0, 300);
  const after = await send(300, 600);
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  t.comment(`heap: ${mb(full - start)} after 300 distinct ~4 KB documents, ${mb(after - full)} more after 300 more`);
  // Unbounded, every one stayed: 600 would hold over 60 MB even without locations (~1.8 MB each
  // for the finding's 16 KB documents, with them). The caches hold ~28 MB at most, swinging as
  // quick-lru drops a generation.
  t.ok(full - start < 40 * 1024 * 1024, 'the full caches hold a bounded amount');
  t.ok(after - start < 40 * 1024 * 1024, 'and no more after as many again');
});
