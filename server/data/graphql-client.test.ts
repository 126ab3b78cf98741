import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { HttpError } from '../http/client.ts';
import { createGraphQLClient } from './graphql-client.ts';
import { startDataServer } from './test-server.ts';

/** GraphQL over HTTP on the site's generic HTTP client: its retry rules as GraphQL sees them. */

const RETRY_STATUSES = [408, 409, 425, 429, 500, 502, 503, 504];

async function statusServer(t: Test) {
  const seen: string[] = [];
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? '-'} ${body}`);
    const status = Number(req.url?.split('/')[2]);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ errors: [{ message: `status ${status}` }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

t.test('a GraphQL POST is never retried, whatever the status; the error names the call', async (t) => {
  const { origin, seen } = await statusServer(t);
  for (const status of [...RETRY_STATUSES, 400, 401, 404]) {
    const client = createGraphQLClient({ url: `${origin}/graphql/${status}`, token: 'abc' });
    t.teardown(() => client.close());
    const error = await client.request({ query: '{ __typename }' }).catch((e: unknown) => e);
    t.ok(error instanceof HttpError, `${status}`);
    t.match(error, {
      code: 'HTTP_STATUS',
      method: 'POST',
      url: `${origin}/graphql/${status}`,
      status,
      data: { errors: [{ message: `status ${status}` }] },
    });
    t.ok((error as HttpError).statusText, 'with its status text');
  }
  t.equal(seen.length, RETRY_STATUSES.length + 3, 'one request per call: a body means no retry');
  t.match(seen[0], /^POST \/graphql\/408 Bearer abc \{"query":"\{ __typename \}"\}$/, 'JSON body and bearer token');
});

t.test('against the embedded backend: data and errors both come back (error policy all)', async (t) => {
  const server = await startDataServer(t);
  const client = createGraphQLClient({ url: server.url });
  t.teardown(() => client.close());
  const result = await client.request<{ a: { id: string } | null; b: unknown }>({
    query:
      'query ($locale: String!) { a: product(id: "4711", locale: $locale) { id } b: product(id: "1", locale: "bad") { id } }',
    variables: { locale: 'en-GB' },
  });
  t.same(result.data, { a: { id: '4711' }, b: null });
  t.equal(result.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');

  const changed = await client.request<{ updateProduct: { price: { amount: number } } }>(
    { query: 'mutation { updateProduct(id: "4711", locale: "en-GB", amount: 750) { price { amount } } }' },
    { token: server.writerToken },
  );
  t.equal(changed.data?.updateProduct.price.amount, 750, 'a per-call token');
  await t.rejects(client.request({ query: '{ __typename }' }, { token: 'forged' }), {
    code: 'HTTP_STATUS',
    status: 401,
  });
});
