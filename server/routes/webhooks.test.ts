import t from 'tap';
import { changedEntry } from './webhooks.ts';

const event = (overrides: Record<string, unknown> = {}, data: Record<string, unknown> = {}) => ({
  event: 'publish',
  module: 'entry',
  api_key: 'blt1',
  data: { entry: { uid: 'blt-page', locale: 'de-ch' }, content_type: { uid: 'page' }, ...data },
  ...overrides,
});

t.test('publish, unpublish and delete of an entry name the entry, its type and the site locale', async (t) => {
  for (const name of ['publish', 'unpublish', 'delete'])
    t.same(changedEntry(event({ event: name })), { type: 'page', uid: 'blt-page', locale: 'de-CH' }, name);
  t.same(
    changedEntry(
      event({}, { entry: { uid: 'cfg' }, content_type: { uid: 'application_configuration' }, locale: 'fr-ch' }),
    ),
    { type: 'application_configuration', uid: 'cfg', locale: 'fr-CH' },
    'the event locale when the entry carries none',
  );
  t.same(changedEntry(event({}, { entry: { uid: 'tpl' }, content_type: { uid: 'page_template' } })), {
    type: 'page_template',
    uid: 'tpl',
  });
});

t.test('everything else is a reason to refuse, never an entry', async (t) => {
  const rows: [string, unknown][] = [
    ['not an object', 'publish'],
    ['null', null],
    ['a list', [event()]],
    ['create (a draft)', event({ event: 'create' })],
    ['update (a draft)', event({ event: 'update' })],
    ['publish.start', event({ event: 'publish.start' })],
    ['an asset', event({ module: 'asset' })],
    ['a content type', event({ module: 'content_type' })],
    ['no data', event({ data: undefined })],
    ['an entry uid that could break out', event({}, { entry: { uid: '../x"<' } })],
    ['a content type uid in capitals', event({}, { content_type: { uid: 'Page' } })],
  ];
  for (const [name, body] of rows) t.type(changedEntry(body), 'string', name);
});
