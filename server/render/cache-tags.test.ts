import t from 'tap';
import type { PageEntry, TemplateEntry } from '../../common/content.ts';
import { changeTags, pageTagHeaders, pageTags, tagHeaders } from './cache-tags.ts';

const page = {
  uid: 'blt-page-1',
  uuid: '4711',
  template: [{ _content_type_uid: 'page_template', uid: 'dishwasher' }],
} as PageEntry;
const template = {
  uid: 'dishwasher',
  header_components: [{ _content_type_uid: 'hero', uid: 'hero-1' }],
  body_components: [
    { _content_type_uid: 'rich_text', uid: 'text-1' },
    { _content_type_uid: 'hero', uid: 'hero-1' },
  ],
  footer_components: [{ _content_type_uid: 'legal_section_block', uid: 'legal' }],
} as TemplateEntry;

t.test('a page names every entry it was built from, once each', async (t) => {
  t.same(pageTags('www.halden.co.uk', page, template).sort(), [
    'application_configuration',
    'hero:hero-1',
    'legal_section_block:legal',
    'page:4711',
    'page:blt-page-1',
    'page_template:dishwasher',
    'rich_text:text-1',
    'site:www.halden.co.uk',
  ]);
  t.same(pageTags('h', page, null).sort(), [
    'application_configuration',
    'page:4711',
    'page:blt-page-1',
    'page_template:dishwasher',
    'site:h',
  ]);
});

t.test('a change names the tags of its entries, or every storefront when it names none', async (t) => {
  const table: [Parameters<typeof changeTags>[0], string[]][] = [
    [{ origin: 'revalidate' }, ['site:a.example', 'site:b.example']],
    [{ origin: 'webhook', entries: [{ type: 'hero', uid: 'hero-1', locale: 'en-GB' }] }, ['hero:hero-1']],
    [{ origin: 'publish', entries: [{ type: 'pages', uid: '4711', locale: 'en-GB' }] }, ['page:4711']],
    [
      { origin: 'webhook', entries: [{ type: 'application_configuration', uid: 'blt9' }] },
      ['application_configuration'],
    ],
    [{ origin: 'webhook', entries: [{ type: 'hero', uid: 'a b,c' }] }, []],
  ];
  for (const [change, tags] of table)
    t.same(changeTags(change, ['a.example', 'b.example']), tags, JSON.stringify(change));
});

t.test('Surrogate-Key is space-separated, Cache-Tag comma-separated; no tags, no headers', async (t) => {
  t.same(tagHeaders(['a', 'b']), { 'surrogate-key': 'a b', 'cache-tag': 'a,b' });
  t.same(tagHeaders([]), {});
});

t.test("a page's tag headers are worked out once per page entry and storefront", async (t) => {
  const first = pageTagHeaders('www.halden.co.uk', page, null);
  t.same(first, tagHeaders(pageTags('www.halden.co.uk', page, null)));
  t.equal(pageTagHeaders('www.halden.co.uk', page, null), first, 'the same headers again');
  const elsewhere = pageTagHeaders('www.halden.ie', page, null);
  t.match(elsewhere['surrogate-key'], /site:www\.halden\.ie/, 'another storefront has its own');
});
