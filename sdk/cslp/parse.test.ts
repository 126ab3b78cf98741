import t from 'tap';
import { parseCslp } from './parse.ts';

/** The reference's worked examples (d.3), the site's own tags, and tags that are not tags. */

const parsed = (
  cslpValue: string,
  ct: string,
  entry: string,
  locale: string,
  variant: string | undefined,
  fieldPath: string,
  fieldPathWithIndex: string,
  instance: string,
  index: number,
  parent: [string, string] | null,
) => ({
  content_type_uid: ct,
  entry_uid: entry,
  locale,
  variant,
  cslpValue,
  fieldPath,
  fieldPathWithIndex,
  multipleFieldMetadata: {
    index,
    parentDetails: parent && { parentPath: parent[0], parentCslpValue: parent[1] },
  },
  instance: { fieldPathWithIndex: instance },
});

const EXAMPLES: [string, string, ReturnType<typeof parsed>][] = [
  [
    '1. a plain field',
    'page.blt01.en-us.title',
    parsed('page.blt01.en-us.title', 'page', 'blt01', 'en-us', undefined, 'title', 'title', 'title', -1, null),
  ],
  [
    '2. the second item of a multiple field',
    'page.blt01.en-us.features.1',
    parsed(
      'page.blt01.en-us.features.1',
      'page',
      'blt01',
      'en-us',
      undefined,
      'features',
      'features',
      'features.1',
      1,
      ['features', 'page.blt01.en-us.features'],
    ),
  ],
  [
    '3. a field inside the first modular block',
    'page.blt01.en-us.blocks.0.hero.title',
    parsed(
      'page.blt01.en-us.blocks.0.hero.title',
      'page',
      'blt01',
      'en-us',
      undefined,
      'blocks.hero.title',
      'blocks.0.hero.title',
      'blocks.0.hero.title',
      0,
      ['blocks', 'page.blt01.en-us.blocks'],
    ),
  ],
  [
    '4. an instance inside a nested group',
    'page.blt01.en-us.groups.0.links.items.3',
    parsed(
      'page.blt01.en-us.groups.0.links.items.3',
      'page',
      'blt01',
      'en-us',
      undefined,
      'groups.links.items',
      'groups.0.links.items',
      'groups.0.links.items.3',
      3,
      ['groups.0.links.items', 'page.blt01.en-us.groups.0.links.items'],
    ),
  ],
  [
    '5. a v2 tag with a variant',
    'v2:page.blt01_cs9a8b7c.de-ch.summary',
    parsed(
      'v2:page.blt01_cs9a8b7c.de-ch.summary',
      'page',
      'blt01',
      'de-ch',
      'cs9a8b7c',
      'summary',
      'summary',
      'summary',
      -1,
      null,
    ),
  ],
  [
    '6. a v2 instance: the parent tag has no prefix and no variant',
    'v2:page.blt01_cs9a8b7c.en-us.features.2',
    parsed(
      'v2:page.blt01_cs9a8b7c.en-us.features.2',
      'page',
      'blt01',
      'en-us',
      'cs9a8b7c',
      'features',
      'features',
      'features.2',
      2,
      ['features', 'page.blt01.en-us.features'],
    ),
  ],
  [
    '7a. an instance',
    'product.e7.en-gb.specs.0',
    parsed('product.e7.en-gb.specs.0', 'product', 'e7', 'en-gb', undefined, 'specs', 'specs', 'specs.0', 0, [
      'specs',
      'product.e7.en-gb.specs',
    ]),
  ],
  [
    '7b. a field of that instance',
    'product.e7.en-gb.specs.0.label',
    parsed(
      'product.e7.en-gb.specs.0.label',
      'product',
      'e7',
      'en-gb',
      undefined,
      'specs.label',
      'specs.0.label',
      'specs.0.label',
      0,
      ['specs', 'product.e7.en-gb.specs'],
    ),
  ],
  [
    'the site: a component field of a template zone',
    'page_template.dishwasher.en-GB.body_components.0.headline',
    parsed(
      'page_template.dishwasher.en-GB.body_components.0.headline',
      'page_template',
      'dishwasher',
      'en-GB',
      undefined,
      'body_components.headline',
      'body_components.0.headline',
      'body_components.0.headline',
      0,
      ['body_components', 'page_template.dishwasher.en-GB.body_components'],
    ),
  ],
  [
    'an entry without a field path',
    'page.blt01.en-us',
    parsed('page.blt01.en-us', 'page', 'blt01', 'en-us', undefined, '', '', '', -1, null),
  ],
  [
    'v1 keeps underscores in the entry uid',
    'page.blt01_x.en-us.title',
    parsed('page.blt01_x.en-us.title', 'page', 'blt01_x', 'en-us', undefined, 'title', 'title', 'title', -1, null),
  ],
  [
    '3.2.5 quirk: an empty segment counts as index 0',
    'page.blt01.en-us.a..b',
    parsed('page.blt01.en-us.a..b', 'page', 'blt01', 'en-us', undefined, 'a.b', 'a..b', 'a..b', 0, [
      'a',
      'page.blt01.en-us.a',
    ]),
  ],
  [
    '3.2.5 quirk: another short prefix is only stripped',
    'v1:page.blt01_x.en-us.title',
    parsed('v1:page.blt01_x.en-us.title', 'page', 'blt01_x', 'en-us', undefined, 'title', 'title', 'title', -1, null),
  ],
  [
    '3.2.5 quirk: a v1 tag loses everything from a colon',
    'page.blt01.en-us.title:ignored.more',
    parsed(
      'page.blt01.en-us.title:ignored.more',
      'page',
      'blt01',
      'en-us',
      undefined,
      'title',
      'title',
      'title',
      -1,
      null,
    ),
  ],
];

for (const [name, tag, expected] of EXAMPLES) {
  t.test(name, async (t) => {
    const result = parseCslp(tag);
    t.same(result, expected);
    t.same(Object.keys(result ?? {}), Object.keys(expected), 'exactly the nine keys, in the wire order');
  });
}

t.test('malformed tags are not tags', async (t) => {
  for (const tag of [
    '',
    'page',
    'page.blt01',
    'page..en-us.title',
    '.blt01.en-us',
    'page.blt01.',
    'v2:',
    'v2:page',
    'v2:page._variant.en-us.title',
    'ab',
  ])
    t.equal(parseCslp(tag), null, JSON.stringify(tag));
});

t.test('a v2 tag without an entry_variant pair is not a tag, as 4.4.1 (isValidCslp) decides', async (t) => {
  for (const tag of ['v2:page.blt01.en-us.title', 'v2:page.blt01_.en-us.title', 'v2:page.blt01__cs9.en-us'])
    t.equal(parseCslp(tag), null, JSON.stringify(tag));
});
