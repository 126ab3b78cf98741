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

interface Request {
  method?: 'GET' | 'PUT' | 'POST' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
}
/** A table row: what is asked, the status and code it gets, and the field path when it names one. */
type Case = [name: string, request: Request, status: number, code: string, path?: string];

const editor = { ...json, ...bearer(TOKEN) };
const get = (url: string, headers: Record<string, string> = {}): Request => ({ url, headers });
const del = (url: string): Request => ({ method: 'DELETE', url, headers: bearer(TOKEN) });
const put = (url: string, body: unknown, headers: Record<string, string> = editor): Request => ({
  method: 'PUT',
  url,
  headers,
  body,
});
const post = (url: string, body: unknown, headers: Record<string, string> = editor): Request => ({
  method: 'POST',
  url,
  headers,
  body,
});
const webhook = (body: unknown) => post('/cs/api/_webhook/contentstack', body, { ...json, ...bearer(SECRET) });
const page = draft(`${HASH}/en-GB/pages/4711`);
const template = { title: 't', header_components: [], body_components: [], footer_components: [] };

const CASES: Case[] = [
  // Draft API
  ['draft without token', put(page, {}, json), 401, 'TOKEN_REQUIRED'],
  ['draft of another service', del(draft(`${HASH}/en-GB/pages/4711`, 'other')), 404, 'SERVICE_UNKNOWN'],
  ['draft under a short hash', del(draft('short/en-GB/pages/4711')), 400, 'HASH_INVALID'],
  ['draft of a malformed type', del(draft(`${HASH}/en-GB/No%20Type/4711`)), 400, 'ADDRESS_INVALID'],
  ['draft that is no page', put(page, { uuid: 4711 }), 400, 'CONTENT_INVALID', '$.uuid'],
  [
    'draft of another id',
    put(draft(`${HASH}/en-GB/page_template/home`), { ...template, uid: 'x' }),
    400,
    'CONTENT_INVALID',
    '$.uid',
  ],
  ['draft too large', put(page, { note: 'a'.repeat(DRAFT_BODY_LIMIT) }), 413, 'DRAFT_TOO_LARGE'],
  ['draft that is not JSON', put(page, '{'), 400, 'REQUEST_REFUSED'],
  ['deleting no draft', del(page), 404, 'DRAFT_NOT_FOUND'],
  // Content API
  ['page id not digits', get('/cs/api/contentstack/pages/abc?language=en-GB'), 400, 'UUID_INVALID'],
  ['language not a locale', get('/cs/api/contentstack/pages/4711?language=%3Cx%3E'), 400, 'LANGUAGE_INVALID'],
  ['entry of another service', get('/cs/api/other/pages/4711?language=en-GB'), 404, 'SERVICE_UNKNOWN'],
  ['no such entry', get('/cs/api/contentstack/page_template/nope?language=en-GB'), 404, 'ENTRY_NOT_FOUND'],
  ['configuration in a foreign language', get('/_applicationConfiguration?language=fr-FR'), 400, 'LANGUAGE_INVALID'],
  ['revalidate without token', post('/cs/api/_revalidate', undefined, {}), 401, 'REVALIDATE_TOKEN_REQUIRED'],
  // Webhook
  ['webhook without secret', post('/cs/api/_webhook/contentstack', {}, json), 401, 'WEBHOOK_SECRET_REQUIRED'],
  ['webhook of another event', webhook({ event: 'create', module: 'entry', data: {} }), 400, 'WEBHOOK_EVENT_INVALID'],
  [
    'webhook of another module',
    webhook({ event: 'publish', module: 'asset', data: {} }),
    400,
    'WEBHOOK_MODULE_IGNORED',
  ],
  ['webhook naming no entry', webhook({ event: 'publish', module: 'entry', data: {} }), 400, 'WEBHOOK_DATA_INVALID'],
  // Workbench API
  ['workbench without token', get(`${WB}/catalog`), 401, 'TOKEN_REQUIRED'],
  ['workbench foreign locale', get(`${WB}/entries?locale=fr-FR&uuid=4711`, editor), 400, 'LOCALE_INVALID'],
  ['workbench page id not an id', get(`${WB}/entries?locale=en-GB&uuid=..`, editor), 400, 'UUID_INVALID'],
  ['workbench malformed hash', get(`${WB}/entries?locale=en-GB&uuid=4711&hash=%3C`, editor), 400, 'HASH_INVALID'],
  ['workbench no such page', get(`${WB}/entries?locale=en-GB&uuid=9999999`, editor), 404, 'PAGE_NOT_FOUND'],
  ['workbench unknown content type', get(`${WB}/field-schema/nope`, editor), 404, 'CONTENT_TYPE_UNKNOWN'],
  ['workbench drafts of a foreign locale', get(`${WB}/drafts?locale=fr-FR`, editor), 400, 'LOCALE_INVALID'],
  ['workbench threads of no page', get(`${WB}/collab?locale=en-GB&uuid=..`, editor), 400, 'ADDRESS_INVALID'],
  [
    'threads not a list',
    put(`${WB}/collab?locale=en-GB&uuid=4711`, { threads: {}, comments: [] }),
    400,
    'THREADS_INVALID',
    '$.threads',
  ],
  [
    'thread not an object',
    put(`${WB}/collab?locale=en-GB&uuid=4711`, { threads: [1], comments: [] }),
    400,
    'THREADS_INVALID',
    '$.threads[0]',
  ],
  ['publish without fields', post(`${WB}/publish`, {}), 400, 'FIELDS_REQUIRED'],
  [
    'publish of a malformed draft',
    post(`${WB}/publish`, { hash: HASH, locale: 'en-GB', type: 'No Type', id: '4711' }),
    400,
    'ADDRESS_INVALID',
  ],
  [
    'publish of no draft',
    post(`${WB}/publish`, { hash: HASH, locale: 'en-GB', type: 'pages', id: '4711' }),
    404,
    'DRAFT_NOT_FOUND',
  ],
  // Builds and page payloads
  ['unknown build', get('/builds/meta/nope.json'), 404, 'BUILD_UNKNOWN'],
  ['payload of no page', get('/cs/nope-999/_payload.json'), 404, 'PAGE_NOT_FOUND'],
];

const send = (c: Request) =>
  app.inject({
    method: c.method ?? 'GET',
    url: c.url,
    headers: { host: HOSTS.uk, ...c.headers },
    ...(c.body === undefined ? {} : { payload: typeof c.body === 'string' ? c.body : JSON.stringify(c.body) }),
  });

t.test('every JSON API refusal carries its catalogue code', async (t) => {
  for (const [name, request, status, code, path] of CASES) {
    const res = await send(request);
    const body = res.json() as { error: unknown; code: unknown; path?: unknown };
    t.equal(res.statusCode, status, `${name}: status`);
    t.equal(body.code, code, `${name}: code`);
    t.type(body.error, 'string', `${name}: a sentence`);
    if (path) t.equal(body.path, path, `${name}: the field`);
    t.equal(res.headers['cache-control'], 'no-store', `${name}: never cached`);
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
