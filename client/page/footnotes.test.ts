import t from 'tap';
import type { ComponentEntry } from '../../common/content.ts';
import { contentFootnoteIds, FootnoteCollection, pricingFootnotes } from './footnotes.ts';

const pricing = (...items: [string, string][]) => ({
  pricingFootnotes: items.map(([code, formattedFootnote]) => ({ code, formattedFootnote })),
});
const legal = (name: string, fields: Record<string, unknown> = { longText: `${name} text` }) => ({
  type: 'LEGAL_INFORMATION',
  name,
  ...fields,
});
const patent = (name: string, fields: Record<string, unknown> = { longText: `${name} text` }) => ({
  type: 'PATENT_INFORMATION',
  name,
  ...fields,
});
const component = (
  uid: string,
  fields: Record<string, unknown> = {},
  type = 'product_feature_list',
): ComponentEntry => ({
  _content_type_uid: type,
  uid,
  ...fields,
});

function collect(components: ComponentEntry[]) {
  const collection = new FootnoteCollection();
  collection.register(components);
  return collection;
}
const ids = (collection: FootnoteCollection) => collection.footnotes.map((f) => f.id);

t.test('footnotes are numbered in the order they first appear on the page', async (t) => {
  // header, body, footer order as the page assembly passes them
  const collection = collect([
    component('header-teaser', { pricingFootnotesContainer: pricing(['P1', 'Header price']) }),
    component('body-features', {
      productFeatures: [legal('L1'), { titleText: 'Quiet' }],
      pricingFootnotesContainer: pricing(['P2', 'Body price']),
    }),
    component('footer-teaser', { featuredBenefits: [patent('PAT1')] }),
  ]);
  t.same(ids(collection), ['P1', 'L1', 'P2', 'PAT1']);
  t.same(
    collection.footnotes.map((f) => f.index),
    [1, 2, 3, 4],
    'index is 1-based and follows first appearance',
  );
  t.same(
    collection.footnotes.map((f) => f.type),
    ['pricing', 'content', 'pricing', 'content'],
  );
});

t.test('a footnote cited twice appears once, with its first description and number', async (t) => {
  const collection = collect([
    component('a', { pricingFootnotesContainer: pricing(['P1', 'first'], ['P2', 'second']) }),
    component('b', {
      pricingFootnotesContainer: pricing(['P1', 'repeated with other text']),
      productFeatures: [legal('L1', { longText: 'legal first' })],
      benefitGroups: [{ title: 'g', contents: [legal('L1', { longText: 'legal again' })] }],
    }),
  ]);
  t.same(ids(collection), ['P1', 'P2', 'L1']);
  t.equal(collection.get('P1')?.description, 'first');
  t.equal(collection.get('P1')?.index, 1);
  t.equal(collection.get('L1')?.description, 'legal first');
  t.equal(collection.get('L1')?.index, 3);
  t.equal(collection.get('never-registered'), undefined);
});

t.test('pricing footnotes are found at any depth, e.g. inside products[]', async (t) => {
  const collection = collect([
    component(
      'grid',
      {
        products: [
          { id: 'a', pricingFootnotesContainer: pricing(['DEEP1', 'Deep price']) },
          { id: 'b', nested: { more: [{ pricingFootnotesContainer: pricing(['DEEP2', 'Deeper price']) }] } },
        ],
      },
      'product_teaser_grid',
    ),
  ]);
  t.same(ids(collection), ['DEEP1', 'DEEP2']);
  t.same(collection.get('DEEP2'), {
    id: 'DEEP2',
    description: 'Deeper price',
    type: 'pricing',
    anchor: collection.get('DEEP2')?.anchor,
    index: 2,
  });
});

t.test('content footnotes count in each of the three content areas, at any depth', async (t) => {
  const cases: [string, Record<string, unknown>][] = [
    ['benefitGroups[].contents[]', { benefitGroups: [{ title: 'g', contents: [legal('X')] }] }],
    ['featuredBenefits[]', { featuredBenefits: [patent('X')] }],
    ['productFeatures[]', { productFeatures: [legal('X')] }],
    [
      'nested inside a productFeatures item',
      { productFeatures: [{ titleText: 'Dry', notes: [{ inner: legal('X') }] }] },
    ],
    [
      'nested inside a benefit of a group',
      { benefitGroups: [{ title: 'g', contents: [{ titleText: 'b', details: { footnote: patent('X') } }] }] },
    ],
    ['a content area deep inside the component', { section: { inner: [{ featuredBenefits: [legal('X')] }] } }],
  ];
  for (const [where, fields] of cases) {
    const collection = collect([component('c', fields)]);
    t.same(ids(collection), ['X'], where);
    t.equal(collection.get('X')?.type, 'content', `${where}: type`);
  }
});

t.test('legal and patent objects outside the content areas are not footnotes', async (t) => {
  const cases: [string, Record<string, unknown>][] = [
    ['top level field', { disclaimer: legal('X') }],
    ['a plain list', { items: [patent('X')] }],
    ['the title of a benefit group', { benefitGroups: [{ title: 'g', titleNote: legal('X'), contents: [] }] }],
    ['a benefit group itself', { benefitGroups: [legal('X')] }],
    ['a list beside the contents of a group', { benefitGroups: [{ title: 'g', extras: [patent('X')], contents: [] }] }],
    ['inside a products[] item', { products: [{ id: 'p', legal: legal('X') }] }],
  ];
  for (const [where, fields] of cases) {
    t.same(ids(collect([component('c', fields)])), [], where);
  }
});

t.test('only PATENT_INFORMATION and LEGAL_INFORMATION objects with a name are content footnotes', async (t) => {
  const collection = collect([
    component('c', {
      productFeatures: [
        { type: 'FEATURE', name: 'feature', longText: 'not a footnote' },
        { type: 'LEGAL_INFORMATION', longText: 'no name' },
        { type: 'LEGAL_INFORMATION', name: '', longText: 'empty name' },
        { type: 'legal_information', name: 'lowercase', longText: 'wrong case' },
        legal('ok'),
      ],
    }),
  ]);
  t.same(ids(collection), ['ok']);
});

t.test('a content footnote is described by the first non-empty text field', async (t) => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['all fields', { longText: 'long', shortText: 'short', subTitleText: 'sub', titleText: 'title' }, 'long'],
    ['long text empty', { longText: '', shortText: 'short', subTitleText: 'sub', titleText: 'title' }, 'short'],
    ['long text blank', { longText: '   ', shortText: 'short' }, 'short'],
    ['only subtitle and title', { subTitleText: 'sub', titleText: 'title' }, 'sub'],
    ['only title', { titleText: 'title' }, 'title'],
    ['long text not a string', { longText: 42, titleText: 'title' }, 'title'],
    ['no text at all', {}, ''],
  ];
  for (const [label, fields, expected] of cases) {
    const collection = collect([component('c', { productFeatures: [legal('N', fields)] })]);
    t.equal(collection.get('N')?.description, expected, label);
  }
});

t.test('anchors are safe fragment ids, unique, and the same on every build', async (t) => {
  const components = [
    component('c', {
      pricingFootnotesContainer: pricing(['LEGAL info/1', 'a'], ['legal-info-1', 'b'], ['Legal Info 1', 'c']),
      productFeatures: [legal('ÄÖÜ'), legal('!!!')],
    }),
  ];
  const first = collect(components).footnotes.map((f) => f.anchor);
  const second = collect(components).footnotes.map((f) => f.anchor);
  t.same(first, second, 'same content → same anchors');
  t.equal(new Set(first).size, first.length, 'every anchor is distinct');
  t.equal(first[0], 'fn-legal-info-1');
  for (const anchor of first) t.match(anchor, /^[A-Za-z][A-Za-z0-9_-]*$/, `${anchor} is a safe id`);
});

t.test('register with clear rebuilds the collection; without it footnotes accumulate', async (t) => {
  const collection = new FootnoteCollection();
  collection.register([component('a', { pricingFootnotesContainer: pricing(['OLD', 'old']) })]);
  collection.register([component('b', { pricingFootnotesContainer: pricing(['NEXT', 'next']) })]);
  t.same(ids(collection), ['OLD', 'NEXT'], 'without clear the second register appends');

  collection.register([component('c', { pricingFootnotesContainer: pricing(['NEW', 'new']) })], { clear: true });
  t.same(ids(collection), ['NEW']);
  t.equal(collection.get('NEW')?.index, 1, 'numbering restarts');
  t.equal(collection.get('OLD'), undefined);
  t.equal(collection.get('NEW')?.anchor, 'fn-new');

  // anchors are released too: the same id gets the same anchor after a rebuild
  collection.register([component('d', { pricingFootnotesContainer: pricing(['NEW', 'new']) })], { clear: true });
  t.equal(collection.get('NEW')?.anchor, 'fn-new');
});

t.test('a legal section block is a destination, never a source', async (t) => {
  const collection = collect([
    component(
      'legal',
      {
        title: 'Legal Notes',
        footnotes: [{ id: 'OWN', description: 'own', type: 'content', anchor: 'own' }],
        pricingFootnotesContainer: pricing(['IN-LEGAL', 'x']),
        productFeatures: [legal('IN-LEGAL-CONTENT')],
      },
      'legal_section_block',
    ),
    component('c', { pricingFootnotesContainer: pricing(['P', 'p']) }),
  ]);
  t.same(ids(collection), ['P']);
});

t.test('pricingFootnotes skips malformed items', async (t) => {
  t.same(pricingFootnotes(undefined), []);
  t.same(pricingFootnotes({ pricingFootnotes: 'nope' }), []);
  t.same(
    pricingFootnotes({
      pricingFootnotes: [
        { code: 'A', formattedFootnote: 'a' },
        { code: '', formattedFootnote: 'empty code' },
        { code: 'B' },
        null,
        { code: 7, formattedFootnote: 'numeric code' },
        { code: 'C', formattedFootnote: '' },
      ],
    }).map((f) => f.code),
    ['A', 'C'],
  );
});

t.test('contentFootnoteIds lists the footnotes an item cites, in order', async (t) => {
  t.same(
    contentFootnoteIds({
      titleText: 'Feature',
      notes: [legal('first'), { deeper: patent('second') }, { type: 'OTHER', name: 'x' }],
    }),
    ['first', 'second'],
  );
  t.same(contentFootnoteIds(legal('self')), ['self'], 'an item that is itself a footnote');
  t.same(contentFootnoteIds({ titleText: 'no notes' }), []);
});
