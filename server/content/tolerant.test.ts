import t from 'tap';
import { type ContentWarning, readApplicationConfiguration, readPage, readTemplate } from './tolerant.ts';

const KEY = { uuid: '58', locale: 'de-DE' };
const WHERE = 'de-DE/pages/58.json';

function read(value: unknown) {
  const warnings: ContentWarning[] = [];
  const page = readPage(value, KEY, WHERE, (w) => warnings.push(w));
  return { page, warnings };
}

const segment = { title: 'Kühlen', segment: 'kuehlen', exclude_from_breadcrumbs: false, link: [] };

t.test('every page field has a fallback; one that was present but unusable is reported', async (t) => {
  // entry, what the page becomes (a subset), the JSON paths reported
  const rows: [string, unknown, Record<string, unknown>, string[]][] = [
    [
      'the spec shape: no uuid, uid or locale',
      { title: 'Box', slug: 'box' },
      { uuid: '58', uid: '58', locale: 'de-DE' },
      [],
    ],
    ['a uuid that agrees', { uuid: '58', slug: 'box' }, { uuid: '58' }, []],
    ['a uuid that disagrees is ignored', { uuid: '59', slug: 'box' }, { uuid: '58' }, ['$.uuid']],
    ['no title', { slug: 'box' }, { title: '' }, []],
    ['a number as title', { title: 42, slug: 'box' }, { title: '' }, ['$.title']],
    ['page_title of the wrong type', { title: 'Box', page_title: [], slug: 'box' }, { title: 'Box' }, ['$.page_title']],
    ['no slug: from the title', { title: 'Kühl Box!' }, { slug: 'kuhl-box' }, []],
    ['a slug that is not one', { slug: 'Kühl Box' }, { slug: 'kuhl-box' }, ['$.slug']],
    ['no slug, no title', {}, { slug: 'page' }, []],
    ['no template', { slug: 'box' }, { template: [] }, []],
    ['an empty template list', { slug: 'box', template: [] }, { template: [] }, []],
    [
      'a template reference without uid',
      { slug: 'box', template: [{ _content_type_uid: 'page_template' }] },
      { template: [] },
      ['$.template[0]'],
    ],
    [
      'a template reference with a path in its uid',
      { slug: 'box', template: [{ _content_type_uid: 'page_template', uid: '../x' }] },
      { template: [] },
      ['$.template[0]'],
    ],
    ['no taxonomy', { slug: 'box' }, { url_taxonomy: [] }, []],
    ['taxonomy not a list', { slug: 'box', url_taxonomy: 'kuehlen' }, { url_taxonomy: [] }, ['$.url_taxonomy']],
    [
      'taxonomy without segments',
      { slug: 'box', url_taxonomy: [{}] },
      { url_taxonomy: [] },
      ['$.url_taxonomy[0].url_taxonomy_segments'],
    ],
    [
      'a segment that is not a slug',
      { slug: 'box', url_taxonomy: [{ url_taxonomy_segments: [{ ...segment, segment: 'Küche/x' }] }] },
      { url_taxonomy: [] },
      ['$.url_taxonomy[0].url_taxonomy_segments[0].segment'],
    ],
    [
      'a segment with odd optional fields',
      {
        slug: 'box',
        url_taxonomy: [
          {
            url_taxonomy_segments: [
              {
                segment: 'kuehlen',
                title: 7,
                exclude_from_breadcrumbs: 'yes',
                link: [null, { url: '/x', url_type: 'internal' }],
              },
            ],
          },
        ],
      },
      {
        url_taxonomy: [
          {
            url_taxonomy_segments: [
              {
                title: 'kuehlen',
                segment: 'kuehlen',
                exclude_from_breadcrumbs: false,
                link: [{ url: '/x', url_type: 'internal' }],
              },
            ],
          },
        ],
      },
      [],
    ],
    ['no seo', { slug: 'box' }, { seo: undefined }, []],
    ['seo not an object', { slug: 'box', seo: 'x' }, { seo: undefined }, ['$.seo']],
    [
      'a seo field of the wrong type',
      { slug: 'box', seo: { meta_title: 1, meta_description: 'D' } },
      { seo: { meta_description: 'D' } },
      ['$.seo.meta_title'],
    ],
    ['not an object at all', ['x'], { uuid: '58', slug: 'page', template: [] }, ['$']],
    ['null', null, { uuid: '58' }, ['$']],
  ];
  for (const [name, entry, expected, paths] of rows) {
    const { page, warnings } = read(entry);
    t.match(page, expected, name);
    if ('seo' in expected && expected.seo === undefined) t.notOk('seo' in page, `${name}: no seo`);
    t.same(
      warnings.map((w) => w.path),
      paths,
      `${name}: reported paths`,
    );
    for (const w of warnings) t.equal(w.where, WHERE, `${name}: names the file`);
  }
});

t.test('a template keeps its usable components and reports the rest', async (t) => {
  const warnings: ContentWarning[] = [];
  const template = readTemplate(
    {
      uid: 'tpl',
      layout: 'fancy',
      header_components: 'oops',
      body_components: [
        null,
        { uid: 'x' },
        { _content_type_uid: 'rich_text', text: 'T' },
        { _content_type_uid: 'hero', uid: 'h' },
      ],
    },
    'de-DE/page_template/tpl.json',
    (w) => warnings.push(w),
  );
  t.same(template?.header_components, []);
  t.same(template?.footer_components, [], 'a missing zone is empty');
  t.same(
    template?.body_components.map((c) => [c._content_type_uid, c.uid]),
    [
      ['rich_text', 'body_components-2'],
      ['hero', 'h'],
    ],
    'a component without uid gets one from its place',
  );
  t.equal(template?.layout, undefined, 'an unknown layout: the default');
  t.same(
    warnings.map((w) => w.path),
    ['$.layout', '$.header_components', '$.body_components[0]', '$.body_components[1]'],
  );
  t.equal(
    readTemplate('x', 'f.json', () => {}),
    null,
    'not an object: no template',
  );
});

t.test('application configuration: no header unless it is usable, dhfIsEnabled only when true', async (t) => {
  const rows: [unknown, { dhf: boolean; header: boolean; paths: string[] }][] = [
    [
      { globals: { dhfIsEnabled: true }, navigation: { header: { title: 'H', links: [] } } },
      { dhf: true, header: true, paths: [] },
    ],
    [
      { globals: { dhfIsEnabled: 'yes' }, navigation: {} },
      { dhf: false, header: false, paths: ['$.globals.dhfIsEnabled'] },
    ],
    [
      { globals: { dhfIsEnabled: true }, navigation: { header: { links: [] } } },
      { dhf: true, header: false, paths: ['$.navigation.header'] },
    ],
    [{}, { dhf: false, header: false, paths: [] }],
    [[], { dhf: false, header: false, paths: ['$'] }],
  ];
  for (const [value, expected] of rows) {
    const warnings: ContentWarning[] = [];
    const config = readApplicationConfiguration(value, 'de-DE/_applicationConfiguration.json', (w) => warnings.push(w));
    t.equal(config.globals.dhfIsEnabled, expected.dhf, JSON.stringify(value));
    t.equal(config.navigation.header !== undefined, expected.header, JSON.stringify(value));
    t.same(
      warnings.map((w) => w.path),
      expected.paths,
    );
  }
  const links = readApplicationConfiguration(
    {
      globals: { dhfIsEnabled: true },
      navigation: { header: { title: 'H', links: [null, { title: 'A', url: '/a' }, { title: 1 }] } },
    },
    'f',
    () => {},
  ).navigation.header?.links;
  t.same(links, [{ title: 'A', url: '/a' }], 'unusable links are left out');
});
