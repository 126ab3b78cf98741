import t from 'tap';
import WebSocket from 'ws';
import { until } from '../until.ts';
import { hostileCase, request, worstHealthMs } from './attack.ts';
import { startProductionServer } from './production-server.ts';

/** The GraphQL cases of docs/security.md (19, 20, 30, 31) and finding 2 of issue 32, from outside. */
const server = await startProductionServer(t);
const { port } = server;
const JSON_POST = ['Host: localhost', 'Content-Type: application/json'];
const post = (query: string, variables?: object) =>
  request(port, '/graphql', JSON_POST, { method: 'POST', body: JSON.stringify({ query, variables }) });

await hostileCase(t, server, '19. an amplified query (330 aliases of a list) is refused before it runs', async (t) => {
  const ids = Array.from({ length: 50 }, (_, i) => String(4711 + i));
  const fields = Array.from({ length: 330 }, (_, i) => `a${i}:products(ids:$ids,locale:"en-GB"){id}`);
  const answer = await post(`query($ids:[ID!]!){${fields.join(' ')}}`, { ids });
  t.equal(answer.status, 400);
  t.ok(answer.body.length < 4_000, `a short refusal (${answer.body.length} bytes)`);
});

await hostileCase(t, server, '20. deep nesting and introspection in production', async (t) => {
  t.equal((await post(`{${'product(id:"4711",locale:"en-GB"){'.repeat(12)}id${'}'.repeat(12)}}`)).status, 400);
  const introspection = await post('{ __schema { types { name } } }');
  t.match(introspection.body, /introspection has been disabled/);
  t.notMatch(introspection.body, /"types"/, 'no schema in the answer');
});

await hostileCase(t, server, '30. arbitrary queries over GET', async (t) => {
  t.equal((await request(port, '/graphql?query=%7B__typename%7D', ['Host: localhost'])).status, 405);
});

await hostileCase(t, server, '31. a list literal nested 3000 deep', async (t) => {
  const answer = await post(`{products(ids:${'['.repeat(3000)}${']'.repeat(3000)},locale:"en-GB"){id}}`);
  t.equal(answer.status, 400);
  t.notMatch(answer.body, /Maximum call stack/);
});

// Health past 1 s here (1,063 ms in two runs of two on this branch) is finding 5 of issue 32: the
// 101 messages of one socket are handled back to back, neither budgeted nor shed (fixed on another
// branch).
await hostileCase(t, server, '21. one socket holds at most 100 subscriptions: the 101st is refused', async (t) => {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws', {
    headers: { host: 'localhost' },
  });
  t.teardown(() => socket.terminate());
  // biome-ignore lint/suspicious/noExplicitAny: protocol messages are read by path
  const messages: any[] = [];
  socket.on('message', (data) => messages.push(JSON.parse(String(data))));
  await new Promise((resolve) => socket.once('open', resolve));
  socket.send(JSON.stringify({ type: 'connection_init' }));
  await until(() => messages.some((m) => m.type === 'connection_ack'), { what: 'the ack' });
  const query = 'subscription{productUpdated(ids:["4711"],locale:"en-GB"){id}}';
  for (let i = 1; i <= 101; i++) socket.send(JSON.stringify({ type: 'subscribe', id: `s${i}`, payload: { query } }));
  await until(() => messages.some((m) => m.type === 'error'), { what: 'the refusal' });
  t.same(
    messages.filter((m) => m.type === 'error').map((m) => m.id),
    ['s101'],
    'only the one past the cap',
  );
});

// Finding 2 of issue 32 (fixed on another branch: fails here until it is merged). Thirty fragments,
// each spreading the next twice, cost 2^30 visits to a walk that re-walks a fragment at every
// spread; the answer must be a quick 400 and /healthcheck must keep answering meanwhile.
await hostileCase(
  t,
  server,
  'finding 2: a chain of fragments each spreading the next twice is a quick 400',
  async (t) => {
    const names = Array.from({ length: 30 }, (_, i) => String.fromCharCode(i < 26 ? 65 + i : 97 + i - 26));
    const fragments = names.map(
      (name, i) =>
        `fragment ${name} on Query{${i + 1 < names.length ? `...${names[i + 1]} ...${names[i + 1]}` : '...Unknown'}}`,
    );
    const query = `{...A} ${fragments.join(' ')}`;
    t.ok(query.length < 1_000, `the document is ${query.length} bytes`);
    const started = Date.now();
    const answer = await post(query).catch((error: Error) => ({ status: 0, body: error.message }));
    t.equal(answer.status, 400, `answered ${answer.status} after ${Date.now() - started} ms`);
  },
);

t.test('figures', async (t) => {
  t.comment(`worst /healthcheck: ${Math.round(worstHealthMs())} ms`);
  t.ok(server.alive());
});
