import t from 'tap';
import { demoServer, HOSTS, previewWithDrafts } from './helpers.ts';

/** The routes that write, cost or authenticate are limited per client address; others are not. */

const TOKEN = 'revalidate-token-for-rate-tests';
const DRAFT_TOKEN = 'draft-token-for-rate-limit-tests';

const app = await demoServer({
  revalidateToken: TOKEN,
  preview: previewWithDrafts(DRAFT_TOKEN),
  rateLimits: { revalidate: 2, graphql: 3, drafts: 2 },
});
t.teardown(() => app.close());

const cases = [
  {
    name: 'revalidate',
    limit: 2,
    request: { method: 'POST' as const, url: '/cs/api/_revalidate', headers: { authorization: `Bearer ${TOKEN}` } },
  },
  {
    name: 'GraphQL',
    limit: 3,
    request: { method: 'POST' as const, url: '/graphql', payload: { query: '{ __typename }' } },
  },
  {
    name: 'draft API',
    limit: 2,
    request: {
      method: 'DELETE' as const,
      url: '/cs/api/contentstack/_drafts/rate-hash-0001/en-GB/pages/4711',
      headers: { authorization: `Bearer ${DRAFT_TOKEN}` },
    },
  },
];

for (const { name, limit, request } of cases) {
  t.test(`${name}: ${limit} a minute, then 429 with Retry-After`, async (t) => {
    for (let i = 0; i < limit; i++) {
      const res = await app.inject({ ...request, headers: { host: HOSTS.uk, ...request.headers } });
      t.not(res.statusCode, 429, `request ${i + 1} is let through`);
    }
    const refused = await app.inject({ ...request, headers: { host: HOSTS.uk, ...request.headers } });
    t.equal(refused.statusCode, 429);
    t.ok(Number(refused.headers['retry-after']) > 0, 'says when to come back');
  });
}

t.test('pages are never rate limited', async (t) => {
  for (let i = 0; i < 10; i++) t.equal((await app.inject({ url: '/', headers: { host: HOSTS.uk } })).statusCode, 200);
});

t.test(
  'answers no cache holds (preview, live route, payload) share one limit; published pages stay unlimited',
  async (t) => {
    const limited = await demoServer({ preview: previewWithDrafts(DRAFT_TOKEN), rateLimits: { uncachedPages: 3 } });
    t.teardown(() => limited.close());
    const get = (url: string) => limited.inject({ url, headers: { host: HOSTS.uk } });
    const uncached = [
      '/?live_preview=rate-hash-0001',
      '/cs/live',
      '/cs/kitchen/aquasense-60-dishwasher-4711/_payload.json',
    ];
    for (const url of uncached) t.not((await get(url)).statusCode, 429, `${url} is let through`);
    for (const url of uncached) {
      const refused = await get(url);
      t.equal(refused.statusCode, 429, `${url}: the fourth of the minute is refused`);
      t.ok(Number(refused.headers['retry-after']) > 0, 'says when to come back');
    }
    for (let i = 0; i < 10; i++) t.equal((await get('/')).statusCode, 200, 'the published page is still served');
  },
);
