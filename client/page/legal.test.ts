import t from 'tap';
import type { ComponentEntry, Footnote, LegalSectionBlock } from '../../common/content.ts';
import { FootnoteCollection } from './footnotes.ts';
import { LEGAL_SECTION_ID, placeLegalSection } from './legal.ts';

type Zones = { header: ComponentEntry[]; body: ComponentEntry[]; footer: ComponentEntry[] };

const priced = (uid: string, ...codes: string[]): ComponentEntry => ({
  _content_type_uid: 'product_teaser_grid',
  uid,
  pricingFootnotesContainer: { pricingFootnotes: codes.map((code) => ({ code, formattedFootnote: `${code} text` })) },
});
const text = (uid: string): ComponentEntry => ({ _content_type_uid: 'rich_text', uid, text: '<p>hi</p>' });
const own = (id: string, anchor: string): Footnote => ({
  id,
  description: `${id} own text`,
  type: 'content',
  anchor,
  index: 0,
});
const block = (uid: string, footnotes: Footnote[] = []): LegalSectionBlock => ({
  _content_type_uid: 'legal_section_block',
  uid,
  title: `Block ${uid}`,
  footnotes,
  sectionId: `section-${uid}`,
  theming: { background: 'light', theme: 'light' },
});

function place(zones: Zones, title = 'Legal Notes') {
  const collection = new FootnoteCollection();
  collection.register([...zones.header, ...zones.body, ...zones.footer], { clear: true });
  return { placed: placeLegalSection(zones, collection, title), collection };
}

const legalBlocks = (zones: Zones) =>
  [...zones.header, ...zones.body, ...zones.footer].filter(
    (c): c is LegalSectionBlock => c._content_type_uid === 'legal_section_block',
  );

t.test('a page with footnotes and no legal section gets one right after the body', async (t) => {
  const zones: Zones = { header: [priced('h', 'P1')], body: [text('b1'), priced('b2', 'P2')], footer: [text('f')] };
  const { placed } = place(zones, 'Rechtliche Hinweise');

  t.same(placed.header, zones.header, 'header unchanged');
  t.same(placed.footer, zones.footer, 'footer unchanged: the section sits before it');
  t.equal(placed.body.length, 3);
  t.same(placed.body.slice(0, 2), zones.body, 'body components keep their place');
  const added = placed.body[2] as LegalSectionBlock;
  t.equal(added._content_type_uid, 'legal_section_block');
  t.equal(added.title, 'Rechtliche Hinweise', 'uses the translated title it was given');
  t.same(added.theming, { background: 'backdrop', theme: 'dark' });
  t.equal(added.sectionId, LEGAL_SECTION_ID);
  t.same(
    added.footnotes.map((f) => [f.id, f.index]),
    [
      ['P1', 1],
      ['P2', 2],
    ],
  );
});

t.test('a page without footnotes and without a legal section gets no legal section', async (t) => {
  const zones: Zones = { header: [text('h')], body: [text('b')], footer: [] };
  const { placed } = place(zones);
  t.same(legalBlocks(placed), []);
  t.same(placed, zones);
});

t.test('collected footnotes go in front of the footnotes of the existing legal section', async (t) => {
  const zones: Zones = {
    header: [],
    body: [priced('b', 'P1', 'P2'), block('legal', [own('OWN1', 'own-1'), own('OWN2', 'own-2')])],
    footer: [],
  };
  const { placed } = place(zones);
  const blocks = legalBlocks(placed);
  t.equal(blocks.length, 1, 'no second section is added');
  const target = blocks[0]!;
  t.equal(target.title, 'Block legal', 'the block keeps its own title');
  t.equal(target.sectionId, 'section-legal');
  t.same(target.theming, { background: 'light', theme: 'light' }, 'the block keeps its own theming');
  t.same(
    target.footnotes.map((f) => f.id),
    ['P1', 'P2', 'OWN1', 'OWN2'],
    'own notes follow the collected ones, in their order',
  );
  t.same(
    target.footnotes.map((f) => f.index),
    [1, 2, 3, 4],
  );
});

t.test('with two legal sections, only the last one receives the footnotes', async (t) => {
  const first = block('first', [own('FIRST', 'first-note')]);
  const zones: Zones = {
    header: [first],
    body: [priced('b', 'P1')],
    footer: [block('last', [own('LAST', 'last-note')])],
  };
  const { placed } = place(zones);
  const [placedFirst, placedLast] = legalBlocks(placed);
  t.same(placedFirst, first, 'the first block is unchanged');
  t.equal(placed.header[0], first, 'the first block is the same object');
  t.same(
    placedLast?.footnotes.map((f) => f.id),
    ['P1', 'LAST'],
  );
});

t.test('two legal sections in the same zone: the later one receives the footnotes', async (t) => {
  const zones: Zones = {
    header: [],
    body: [block('one'), priced('b', 'P1'), block('two')],
    footer: [],
  };
  const { placed } = place(zones);
  t.same((placed.body[0] as LegalSectionBlock).footnotes, []);
  t.same(
    (placed.body[2] as LegalSectionBlock).footnotes.map((f) => f.id),
    ['P1'],
  );
});

t.test('a block’s own footnotes never share an anchor with a collected one', async (t) => {
  const zones: Zones = {
    header: [],
    // `fn-p1` is the anchor the collected P1 gets; the block brings one with the same anchor
    body: [priced('b', 'P1'), block('legal', [own('OTHER', 'fn-p1'), own('MINE', 'mine'), own('MINE2', 'mine')])],
    footer: [],
  };
  const { placed } = place(zones);
  const anchors = legalBlocks(placed)[0]!.footnotes.map((f) => f.anchor);
  t.equal(anchors[0], 'fn-p1', 'the collected footnote keeps the anchor its citations link to');
  t.equal(new Set(anchors).size, anchors.length, `all anchors distinct: ${anchors.join(', ')}`);
  t.equal(anchors[2], 'mine', 'a non-colliding anchor is kept as is');
});

t.test('the legal section still appears when the page has only a legal block without footnotes', async (t) => {
  const zones: Zones = { header: [], body: [text('b'), block('legal', [own('OWN', 'own')])], footer: [] };
  const { placed } = place(zones);
  const blocks = legalBlocks(placed);
  t.equal(blocks.length, 1);
  t.same(
    blocks[0]?.footnotes.map((f) => [f.id, f.anchor, f.index]),
    [['OWN', 'own', 1]],
  );
});

t.test('placing the legal section does not change its inputs', async (t) => {
  const ownNotes = [own('OWN', 'fn-p1')];
  const zones: Zones = {
    header: [priced('h', 'P1')],
    body: [block('legal', ownNotes)],
    footer: [],
  };
  const snapshot = structuredClone(zones);
  const { placed } = place(zones);
  t.same(zones, snapshot, 'zones unchanged');
  t.not(placed.body, zones.body, 'a new body array');

  const noBlock: Zones = { header: [], body: [priced('b', 'P1')], footer: [] };
  const noBlockSnapshot = structuredClone(noBlock);
  const result = place(noBlock).placed;
  t.same(noBlock, noBlockSnapshot, 'zones unchanged when a section is appended');
  t.equal(noBlock.body.length, 1);
  t.equal(result.body.length, 2);
});
