import Fastify from 'fastify';
import t, { type Test } from 'tap';
import { type ContentChange, ContentChanges } from '../content/changes.ts';
import type { ContentService } from '../content/service.ts';
import { webhookRoutes } from './webhooks.ts';

const SECRET = 'webhook-secret-0123456789';

async function app(t: Test) {
  const changes = new ContentChanges();
  const heard: ContentChange[] = [];
  changes.subscribe((change) => heard.push(change));
  const server = Fastify();
  // Only the hub is used by the route.
  await server.register(webhookRoutes, { content: { changes } as unknown as ContentService, secret: SECRET });
  t.teardown(() => server.close());
  const post = (body: unknown, authorization = `Bearer ${SECRET}`) =>
    server.inject({
      method: 'POST',
      url: '/cs/api/_webhook/contentstack',
      headers: { authorization, 'content-type': 'application/json' },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
  return { post, heard };
}

const event = (overrides: Record<string, unknown> = {}, data: Record<string, unknown> = {}) => ({
  event: 'publish',
  module: 'entry',
  api_key: 'blt1',
  data: { entry: { uid: 'blt-page', locale: 'de-ch', title: 'x' }, content_type: { uid: 'page' }, ...data },
  ...overrides,
});

t.test('publish, unpublish and delete of an entry announce it with its type and site locale', async (t) => {
  const { post, heard } = await app(t);
  for (const name of ['publish', 'unpublish', 'delete']) {
    const res = await post(event({ event: name }));
    t.equal(res.statusCode, 200, name);
    t.equal(res.headers['cache-control'], 'no-store');
  }
  await post(event({}, { entry: { uid: 'cfg' }, content_type: { uid: 'application_configuration' }, locale: 'fr-ch' }));
  await post(event({}, { entry: { uid: 'tpl' }, content_type: { uid: 'page_template' } }));
  t.same(heard, [
    { origin: 'webhook', entries: [{ type: 'page', uid: 'blt-page', locale: 'de-CH' }] },
    { origin: 'webhook', entries: [{ type: 'page', uid: 'blt-page', locale: 'de-CH' }] },
    { origin: 'webhook', entries: [{ type: 'page', uid: 'blt-page', locale: 'de-CH' }] },
    { origin: 'webhook', entries: [{ type: 'application_configuration', uid: 'cfg', locale: 'fr-CH' }] },
    { origin: 'webhook', entries: [{ type: 'page_template', uid: 'tpl' }] },
  ]);
});

t.test('everything else is refused with a sentence saying why, and announces nothing', async (t) => {
  const { post, heard } = await app(t);
  const rows: [string, unknown, number, RegExp][] = [
    ['not JSON', '{"event":', 400, /JSON/],
    ['a list', [event()], 400, /body must be object/],
    ['create (a draft)', event({ event: 'create' }), 400, /event must be publish, unpublish or delete/],
    ['update (a draft)', event({ event: 'update' }), 400, /event must be/],
    ['publish.start', event({ event: 'publish.start' }), 400, /event must be/],
    ['an asset', event({ module: 'asset' }), 400, /only entry events/],
    ['no data', event({ data: undefined }), 400, /data must name the entry/],
    ['an entry uid that could break out', event({}, { entry: { uid: '../x"<' } }), 400, /data must name/],
    ['a content type uid in capitals', event({}, { content_type: { uid: 'Page' } }), 400, /data must name/],
  ];
  for (const [name, body, status, message] of rows) {
    const res = await post(body);
    t.equal(res.statusCode, status, name);
    t.match(res.json(), { error: message }, name);
  }
  for (const authorization of ['', `Bearer ${SECRET}x`, SECRET, `Basic ${SECRET}`]) {
    const res = await post(event(), authorization);
    t.equal(res.statusCode, 401, `Authorization "${authorization.slice(0, 8)}…"`);
  }
  t.same(heard, []);
});

t.test('without a configured secret every call is refused', async (t) => {
  const server = Fastify();
  const changes = new ContentChanges();
  await server.register(webhookRoutes, { content: { changes } as unknown as ContentService, secret: undefined });
  t.teardown(() => server.close());
  const res = await server.inject({
    method: 'POST',
    url: '/cs/api/_webhook/contentstack',
    headers: { authorization: 'Bearer ', 'content-type': 'application/json' },
    payload: JSON.stringify(event()),
  });
  t.equal(res.statusCode, 401);
});
