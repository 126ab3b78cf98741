import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { demoServer, HOSTS, previewWithDrafts } from '../../test/helpers.ts';
import { DRAFT_BODY_LIMIT } from './drafts.ts';

/**
 * The draft API: who may write, what it accepts, where it writes, and that a preview request with
 * the hash sees the draft while visitors do not.
 */

const TOKEN = 'draft-token-0123456789abcdef';
const DISHWASHER = '/cs/kitchen/aquasense-60-dishwasher-4711';
const contentDir = await mkdtemp(join(tmpdir(), 'vitrine-drafts-'));
await cp('content', contentDir, { recursive: true });
// The page morphs in place (no SSR reload), as the preview tests below read it.
const PREVIEW = { ...previewWithDrafts(TOKEN), ssr: false };
const app = await demoServer({ contentDir, htmlCache: false, preview: PREVIEW });
t.teardown(async () => {
  await app.close();
  await rm(contentDir, { recursive: true, force: true });
});

const template = JSON.parse(await readFile('content/en-GB/page_template/dishwasher.json', 'utf8')) as {
  body_components: { headline?: string }[];
};
const draftUrl = (hash: string, rest = 'en-GB/page_template/dishwasher') =>
  `/cs/api/contentstack/_drafts/${hash}/${rest}`;

function put(url: string, body: unknown, authorization = `Bearer ${TOKEN}`) {
  return app.inject({
    method: 'PUT',
    url,
    headers: { 'content-type': 'application/json', authorization },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

t.test('without the right bearer token nothing is read or written: 401', async (t) => {
  for (const authorization of ['', 'Bearer nope', `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`]) {
    const res = await put(draftUrl('h401'), template, authorization);
    t.equal(res.statusCode, 401, `authorization "${authorization}"`);
    t.equal(res.headers['www-authenticate'], 'Bearer');
  }
  const big = await put(draftUrl('h401'), { x: 'a'.repeat(DRAFT_BODY_LIMIT + 10) }, 'Bearer wrong');
  t.equal(big.statusCode, 401, 'the token is checked before the body is read');
  const del = await app.inject({ method: 'DELETE', url: draftUrl('h401') });
  t.equal(del.statusCode, 401);
});

t.test('a draft larger than the limit is refused with 413', async (t) => {
  const res = await put(draftUrl('h413'), { ...template, note: 'a'.repeat(DRAFT_BODY_LIMIT) });
  t.equal(res.statusCode, 413);
  t.match(res.json(), { error: /at most 256 KiB/ });
});

t.test('invalid content is refused with 400 and the JSON path of the first problem', async (t) => {
  const badHeadline = structuredClone(template);
  (badHeadline.body_components[0] as Record<string, unknown>).headline = 42;
  const res = await put(draftUrl('h400-hash-0001'), badHeadline);
  t.equal(res.statusCode, 400);
  t.match(res.json(), {
    path: '$.body_components[0].headline',
    error: /^Invalid content: \$\.body_components\[0\]\.headline: /,
  });

  const page = JSON.parse(await readFile('content/en-GB/pages/4711.json', 'utf8')) as Record<string, unknown>;
  const badPage = await put(draftUrl('h400-hash-0001', 'en-GB/pages/4711'), { ...page, slug: 'Not A Slug' });
  t.match(badPage.json(), { path: '$.slug' });
  const otherId = await put(draftUrl('h400-hash-0001', 'en-GB/pages/4712'), page);
  t.match(otherId.json(), { path: '$.uuid' }, 'a page must be the one its path names');
  const otherUid = await put(draftUrl('h400-hash-0001', 'en-GB/page_template/kitchen'), template);
  t.match(otherUid.json(), { path: '$.uid' });
  for (const body of ['[]', '"text"', '{"broken":'])
    t.equal((await put(draftUrl('h400-hash-0001'), body)).statusCode, 400, body);
  const poisoned = await put(draftUrl('h400-hash-0001'), '{"__proto__":{"polluted":true},"uid":"dishwasher"}');
  t.equal(poisoned.statusCode, 400);
  t.equal(({} as Record<string, unknown>).polluted, undefined);
});

t.test('paths outside the store layout are refused before anything is written', async (t) => {
  for (const [url, status] of [
    [draftUrl('bad.hash-0001'), 400],
    [draftUrl('short-hash1'), 400],
    [draftUrl('path-hash-0001', 'english/page_template/dishwasher'), 400],
    [draftUrl('path-hash-0001', 'en-GB/Page-Template/dishwasher'), 400],
    [draftUrl('path-hash-0001', 'en-GB/..%2F..%2Fetc/passwd'), 400],
    [draftUrl('path-hash-0001', 'en-GB/pages/not-a-number'), 400],
    ['/cs/api/elsewhere/_drafts/h/en-GB/page_template/dishwasher', 404],
  ] as const) {
    t.equal((await put(url, template)).statusCode, status, url);
  }
});

t.test('a saved draft is what preview requests with its hash render; visitors keep the published page', async (t) => {
  const hash = 'preview-hash-01';
  const draft = structuredClone(template);
  (draft.body_components[0] as Record<string, unknown>).headline = 'Draft headline from the editor';
  const created = await put(draftUrl(hash), draft);
  t.equal(created.statusCode, 201);
  const written = JSON.parse(
    await readFile(join(contentDir, '_drafts', hash, 'en-GB/page_template/dishwasher.json'), 'utf8'),
  );
  t.same(written, draft, 'written in the store layout under _drafts/{hash}');
  t.equal((await put(draftUrl(hash), draft)).statusCode, 204, 'replacing a draft');

  const preview = await app.inject({ url: `${DISHWASHER}?live_preview=${hash}`, headers: { host: HOSTS.uk } });
  t.match(preview.body, 'Draft headline from the editor');
  const visitor = await app.inject({ url: DISHWASHER, headers: { host: HOSTS.uk } });
  t.notMatch(visitor.body, 'Draft headline from the editor');
  const otherHash = await app.inject({ url: `${DISHWASHER}?live_preview=other`, headers: { host: HOSTS.uk } });
  t.notMatch(otherHash.body, 'Draft headline from the editor');

  const auth = { authorization: `Bearer ${TOKEN}` };
  t.equal((await app.inject({ method: 'DELETE', url: draftUrl(hash), headers: auth })).statusCode, 204);
  t.equal((await app.inject({ method: 'DELETE', url: draftUrl(hash), headers: auth })).statusCode, 404);
  const after = await app.inject({ url: `${DISHWASHER}?live_preview=${hash}`, headers: { host: HOSTS.uk } });
  t.notMatch(after.body, 'Draft headline from the editor');
});

t.test('without a configured token the draft API refuses everyone', async (t) => {
  const closed = await demoServer({ contentDir, preview: { ...PREVIEW, draftToken: undefined } });
  t.teardown(() => closed.close());
  const res = await closed.inject({
    method: 'PUT',
    url: draftUrl('h'),
    headers: { 'content-type': 'application/json', authorization: 'Bearer ' },
    payload: JSON.stringify(template),
  });
  t.equal(res.statusCode, 401);
});
