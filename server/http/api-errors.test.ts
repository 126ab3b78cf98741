import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { demoServer, HOSTS, previewWithDrafts } from '../../test/helpers.ts';
import { ERROR_CODES } from '../errors.ts';
import { DRAFT_BODY_LIMIT } from '../routes/drafts.ts';

/**
 * One error vocabulary: every JSON API refusal answers `{ error, code }` with a code from the
 * catalogue (server/errors.ts), each code is documented in docs/errors.md, and no route answers an
 * error of its own making beside the catalogue.
 */

const TOKEN = 'api-errors-token-0123456789';
const REVALIDATE = 'revalidate-token-0123456789';
const SECRET = 'webhook-secret-0123456789';
const app = await demoServer({
  htmlCache: false,
  preview: previewWithDrafts(TOKEN),
  workbench: { port: 3000 },
  revalidateToken: REVALIDATE,
  webhookSecret: SECRET,
  rateLimits: { revalidate: 2 },
});
t.teardown(() => app.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const json = { 'content-type': 'application/json' };
const draft = (rest: string, service = 'contentstack') => `/cs/api/${service}/_drafts/${rest}`;
const HASH = 'h0123456789abcdef';
const WB = '/__workbench/api';
const event = (body: unknown) => ({ ...json, ...bearer(SECRET), body });

interface Case {
  name: string;
  method?: 'GET' | 'PUT' | 'POST' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  status: number;
  code: string;
  path?: string;
}

const CASES: Case[] = [
  // Draft API
  {
    name: 'draft without token',
    method: 'PUT',
    url: draft(`${HASH}/en-GB/pages/4711`),
    headers: json,
    body: {},
    status: 401,
    code: 'TOKEN_REQUIRED',
  },
  {
    name: 'draft of another service',
    method: 'DELETE',
    url: draft(`${HASH}/en-GB/pages/4711`, 'other'),
    headers: bearer(TOKEN),
    status: 404,
    code: 'SERVICE_UNKNOWN',
  },
  {
    name: 'draft under a short hash',
    method: 'DELETE',
    url: draft('short/en-GB/pages/4711'),
    headers: bearer(TOKEN),
    status: 400,
    code: 'HASH_INVALID',
  },
  {
    name: 'draft of a malformed type',
    method: 'DELETE',
    url: draft(`${HASH}/en-GB/No%20Type/4711`),
    headers: bearer(TOKEN),
    status: 400,
    code: 'ADDRESS_INVALID',
  },
  {
    name: 'draft that is no page',
    method: 'PUT',
    url: draft(`${HASH}/en-GB/pages/4711`),
    headers: { ...json, ...bearer(TOKEN) },
    body: { uuid: 4711 },
    status: 400,
    code: 'CONTENT_INVALID',
    path: '$.uuid',
  },
  {
    name: 'draft of another id',
    method: 'PUT',
    url: draft(`${HASH}/en-GB/page_template/dishwasher`),
    headers: { ...json, ...bearer(TOKEN) },
    body: { uid: 'other', title: 't', header_components: [], body_components: [], footer_components: [] },
    status: 400,
    code: 'CONTENT_INVALID',
    path: '$.uid',
  },
  {
    name: 'draft too large',
    method: 'PUT',
    url: draft(`${HASH}/en-GB/pages/4711`),
    headers: { ...json, ...bearer(TOKEN) },
    body: { note: 'a'.repeat(DRAFT_BODY_LIMIT) },
    status: 413,
    code: 'DRAFT_TOO_LARGE',
  },
  {
    name: 'draft that is not JSON',
    method: 'PUT',
    url: draft(`${HASH}/en-GB/pages/4711`),
    headers: { ...json, ...bearer(TOKEN) },
    body: '{',
    status: 400,
    code: 'REQUEST_REFUSED',
  },
  {
    name: 'deleting no draft',
    method: 'DELETE',
    url: draft(`${HASH}/en-GB/pages/4711`),
    headers: bearer(TOKEN),
    status: 404,
    code: 'DRAFT_NOT_FOUND',
  },
  // Content API
  {
    name: 'page id not digits',
    url: '/cs/api/contentstack/pages/abc?language=en-GB',
    status: 400,
    code: 'UUID_INVALID',
  },
  {
    name: 'language not a locale',
    url: '/cs/api/contentstack/pages/4711?language=%3Cx%3E',
    status: 400,
    code: 'LANGUAGE_INVALID',
  },
  {
    name: 'entry of another service',
    url: '/cs/api/other/pages/4711?language=en-GB',
    status: 404,
    code: 'SERVICE_UNKNOWN',
  },
  {
    name: 'no such entry',
    url: '/cs/api/contentstack/page_template/nope?language=en-GB',
    status: 404,
    code: 'ENTRY_NOT_FOUND',
  },
  {
    name: 'configuration in a foreign language',
    url: '/_applicationConfiguration?language=fr-FR',
    status: 400,
    code: 'LANGUAGE_INVALID',
  },
  {
    name: 'revalidate without token',
    method: 'POST',
    url: '/cs/api/_revalidate',
    status: 401,
    code: 'REVALIDATE_TOKEN_REQUIRED',
  },
  // Webhook
  {
    name: 'webhook without secret',
    method: 'POST',
    url: '/cs/api/_webhook/contentstack',
    headers: json,
    body: {},
    status: 401,
    code: 'WEBHOOK_SECRET_REQUIRED',
  },
  {
    name: 'webhook of another event',
    method: 'POST',
    url: '/cs/api/_webhook/contentstack',
    ...withBody(event({ event: 'create', module: 'entry', data: {} })),
    status: 400,
    code: 'WEBHOOK_EVENT_INVALID',
  },
  {
    name: 'webhook of another module',
    method: 'POST',
    url: '/cs/api/_webhook/contentstack',
    ...withBody(event({ event: 'publish', module: 'asset', data: {} })),
    status: 400,
    code: 'WEBHOOK_MODULE_IGNORED',
  },
  {
    name: 'webhook naming no entry',
    method: 'POST',
    url: '/cs/api/_webhook/contentstack',
    ...withBody(event({ event: 'publish', module: 'entry', data: {} })),
    status: 400,
    code: 'WEBHOOK_DATA_INVALID',
  },
  // Workbench API
  { name: 'workbench without token', url: `${WB}/catalog`, status: 401, code: 'TOKEN_REQUIRED' },
  {
    name: 'workbench page of a foreign locale',
    url: `${WB}/entries?locale=fr-FR&uuid=4711`,
    headers: bearer(TOKEN),
    status: 400,
    code: 'LOCALE_INVALID',
  },
  {
    name: 'workbench page id not an id',
    url: `${WB}/entries?locale=en-GB&uuid=..`,
    headers: bearer(TOKEN),
    status: 400,
    code: 'UUID_INVALID',
  },
  {
    name: 'workbench malformed hash',
    url: `${WB}/entries?locale=en-GB&uuid=4711&hash=%3C`,
    headers: bearer(TOKEN),
    status: 400,
    code: 'HASH_INVALID',
  },
  {
    name: 'workbench no such page',
    url: `${WB}/entries?locale=en-GB&uuid=9999999`,
    headers: bearer(TOKEN),
    status: 404,
    code: 'PAGE_NOT_FOUND',
  },
  {
    name: 'workbench unknown content type',
    url: `${WB}/field-schema/nope`,
    headers: bearer(TOKEN),
    status: 404,
    code: 'CONTENT_TYPE_UNKNOWN',
  },
  {
    name: 'workbench drafts of a foreign locale',
    url: `${WB}/drafts?locale=fr-FR`,
    headers: bearer(TOKEN),
    status: 400,
    code: 'LOCALE_INVALID',
  },
  {
    name: 'workbench threads of no page',
    url: `${WB}/collab?locale=en-GB&uuid=..`,
    headers: bearer(TOKEN),
    status: 400,
    code: 'ADDRESS_INVALID',
  },
  {
    name: 'workbench threads not a list',
    method: 'PUT',
    url: `${WB}/collab?locale=en-GB&uuid=4711`,
    headers: { ...json, ...bearer(TOKEN) },
    body: { threads: {}, comments: [] },
    status: 400,
    code: 'THREADS_INVALID',
    path: '$.threads',
  },
  {
    name: 'workbench thread not an object',
    method: 'PUT',
    url: `${WB}/collab?locale=en-GB&uuid=4711`,
    headers: { ...json, ...bearer(TOKEN) },
    body: { threads: [1], comments: [] },
    status: 400,
    code: 'THREADS_INVALID',
    path: '$.threads[0]',
  },
  {
    name: 'workbench publish without fields',
    method: 'POST',
    url: `${WB}/publish`,
    headers: { ...json, ...bearer(TOKEN) },
    body: {},
    status: 400,
    code: 'FIELDS_REQUIRED',
  },
  {
    name: 'workbench publish of a malformed draft',
    method: 'POST',
    url: `${WB}/publish`,
    headers: { ...json, ...bearer(TOKEN) },
    body: { hash: HASH, locale: 'en-GB', type: 'No Type', id: '4711' },
    status: 400,
    code: 'ADDRESS_INVALID',
  },
  {
    name: 'workbench publish of no draft',
    method: 'POST',
    url: `${WB}/publish`,
    headers: { ...json, ...bearer(TOKEN) },
    body: { hash: HASH, locale: 'en-GB', type: 'pages', id: '4711' },
    status: 404,
    code: 'DRAFT_NOT_FOUND',
  },
  // Builds and page payloads
  { name: 'unknown build', url: '/builds/meta/nope.json', status: 404, code: 'BUILD_UNKNOWN' },
  { name: 'payload of no page', url: '/cs/nope-999/_payload.json', status: 404, code: 'PAGE_NOT_FOUND' },
];

function withBody(headers: Record<string, unknown>) {
  const { body, ...rest } = headers;
  return { headers: rest as Record<string, string>, body };
}

const send = (c: Pick<Case, 'method' | 'url' | 'headers' | 'body'>) =>
  app.inject({
    method: c.method ?? 'GET',
    url: c.url,
    headers: { host: HOSTS.uk, ...c.headers },
    ...(c.body === undefined ? {} : { payload: typeof c.body === 'string' ? c.body : JSON.stringify(c.body) }),
  });

t.test('every JSON API refusal carries its catalogue code', async (t) => {
  for (const c of CASES) {
    const res = await send(c);
    const body = res.json() as { error: unknown; code: unknown; path?: unknown };
    t.equal(res.statusCode, c.status, `${c.name}: status`);
    t.equal(body.code, c.code, `${c.name}: code`);
    t.type(body.error, 'string', `${c.name}: a sentence`);
    if (c.path) t.equal(body.path, c.path, `${c.name}: the field`);
    t.equal(res.headers['cache-control'], 'no-store', `${c.name}: never cached`);
  }
});

t.test('a rate-limited client is told so by code', async (t) => {
  // The table spent one of the two calls a minute.
  const codes: unknown[] = [];
  for (let i = 0; i < 2; i++) codes.push((await send({ method: 'POST', url: '/cs/api/_revalidate' })).json().code);
  t.same(codes, ['REVALIDATE_TOKEN_REQUIRED', 'RATE_LIMITED']);
});

t.test('GraphQL over GET refuses other queries with its catalogue code', async (t) => {
  const res = await send({ url: `/graphql?query=${encodeURIComponent('{ __typename }')}` });
  t.equal(res.statusCode, 405);
  t.equal(res.json().errors[0].extensions.code, 'GET_QUERY_NOT_ALLOWED');
});

t.test('docs/errors.md documents exactly the codes of the catalogue', async (t) => {
  const doc = await readFile('docs/errors.md', 'utf8');
  const documented = new Set([...doc.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]));
  t.same([...documented].sort(), [...ERROR_CODES].sort());
});

t.test('no server module answers an error sentence beside the catalogue', async (t) => {
  const files = (await readdir('server', { recursive: true })).filter(
    (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
  );
  const stray: string[] = [];
  for (const file of files) {
    const text = await readFile(join('server', file), 'utf8');
    // A literal `{ error: '…' }` body, a status number handed to sendApiError, or a problem string split back apart.
    if (/send\(\{\s*error:\s*['"`]|sendApiError\([^,]+,\s*\d|problem\.split\(/.test(text)) stray.push(file);
  }
  t.same(stray, []);
});
