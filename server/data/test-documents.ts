import fc from 'fast-check';

/** Hostile GraphQL documents the data-layer tests throw at the limits. */

/** Fragments F0…F{n-1}, each spreading the next twice, the last spreading one that does not exist. */
export function fragmentChain(levels: number): string {
  const fragments = Array.from({ length: levels }, (_, i) =>
    i + 1 < levels
      ? `fragment F${i} on Product { ...F${i + 1} ...F${i + 1} }`
      : `fragment F${i} on Product { ...Unknown }`,
  );
  return `{ product(id:"1",locale:"x") { ...F0 } } ${fragments.join(' ')}`;
}

const FIELDS = [
  'id',
  'name',
  'locale',
  'version',
  'availability',
  'price',
  'amount',
  'currency',
  'formatted',
  'pricingFootnotesContainer',
  'pricingFootnotes',
  'code',
  'formattedFootnote',
  '__typename',
  'nope',
];

const lineEnd = fc.constantFrom('\n', '\r', '\r\n');
/** What GraphQL ignores between tokens: blanks, commas, and comments ended by any line terminator. */
const ignored = fc.oneof(
  fc.constantFrom(' ', ', ', '\t'),
  lineEnd,
  fc.tuple(fc.string({ maxLength: 12 }), lineEnd).map(([text, end]) => ` #${text.replace(/[\r\n]/g, '')}${end}`),
);

/** Input values: scalars, strings with brackets inside, lists (nested, long, or bracket runs thousands deep). */
const value: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    { arbitrary: fc.integer().map(String), weight: 4 },
    { arbitrary: fc.constantFrom('"4711"', '"en-GB"', 'true', 'null', '"[[{"', '"""block [ { ( """', '$a'), weight: 4 },
    { arbitrary: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(' ')}]`), weight: 2 },
    // Long and deep ones now and then: most documents should reach the parser and validation.
    { arbitrary: fc.integer({ min: 1, max: 3000 }).map((n) => `[${'1 '.repeat(n)}]`), weight: 1 },
    { arbitrary: fc.integer({ min: 1, max: 3000 }).map((n) => `${'['.repeat(n)}1${']'.repeat(n)}`), weight: 1 },
  ),
})).value;

const argumentsOf = fc.oneof(
  fc.constant(''),
  fc.constant('(id: "4711", locale: "en-GB")'),
  value.map((ids) => `(ids: ${ids}, locale: "en-GB")`),
  value.map((id) => `(id: ${id}, locale: "en-GB")`),
);
const alias = fc.oneof(
  fc.constant(''),
  fc.nat(30).map((i) => `a${i}: `),
);
const directives = fc.oneof(
  fc.constant(''),
  fc.nat(30).map((n) => ' @include(if: true)'.repeat(n)),
  fc.constant(' @skip(if: $b)'),
);

/** Selection sets: fields (aliased, with arguments and directives), spreads, inline fragments, repeats. */
const selections: fc.Arbitrary<string> = fc.letrec<{ selection: string; selections: string }>((tie) => ({
  selection: fc.oneof(
    { depthSize: 'xsmall', withCrossShrink: true },
    fc.tuple(alias, fc.constantFrom(...FIELDS), directives).map(([a, name, d]) => `${a}${name}${d}`),
    fc
      .tuple(alias, fc.constantFrom('product', 'products', 'price', 'pricingFootnotesContainer', 'pricingFootnotes'))
      .chain(([a, name]) =>
        fc
          .tuple(argumentsOf, directives, tie('selections'))
          .map(([args, d, inner]) => `${a}${name}${args}${d} ${inner}`),
      ),
    fc.nat(9).map((i) => `...F${i}`),
    tie('selections').map((inner) => `... on Product ${inner}`),
    // One field many times: what graphql-js compares pairwise (aliased or with arguments, it conflicts).
    fc
      .tuple(
        fc.tuple(alias, fc.constantFrom(...FIELDS), argumentsOf).map(([a, name, args]) => `${a}${name}${args}`),
        fc.oneof({ arbitrary: fc.integer({ min: 2, max: 40 }), weight: 4 }, fc.integer({ min: 2, max: 600 })),
      )
      .map(([field, times]) => Array.from({ length: times }, () => field).join(' ')),
  ),
  selections: fc
    .tuple(fc.array(tie('selection'), { minLength: 1, maxLength: 4 }), ignored)
    .map(([items, gap]) => `{${gap}${items.join(gap)}${gap}}`),
})).selections;

const fragments = fc.oneof(
  fc
    .array(selections, { maxLength: 6 })
    .map((sets) => sets.map((set, i) => `fragment F${i} on Product ${set}`).join(' ')),
  fc.integer({ min: 1, max: 60 }).map((levels) => fragmentChain(levels).replace(/^\{.*?\} \} /, '')),
);

/** Whole documents: an operation with variables and defaults, fragments, and now and then garbage spliced in. */
export const graphqlDocument: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('query Q', 'subscription S', 'mutation M', 'query', ''),
    value,
    selections,
    fragments,
    fc.option(fc.tuple(fc.nat(), fc.string({ unit: 'binary', maxLength: 8 })), { freq: 5 }),
  )
  .map(([head, defaultValue, root, definitions, garbage]) => {
    const operation = head
      ? `${head}${head.includes(' ') ? '' : ' '}($a: [ID!] = ${defaultValue}, $b: Boolean = false) { product(id: "4711", locale: "en-GB") ${root} }`
      : `{ product(id: "4711", locale: "en-GB") ${root} }`;
    const document = `${operation} ${definitions}`.slice(0, 64 * 1024);
    if (!garbage) return document;
    const [at, text] = garbage;
    const position = at % (document.length + 1);
    return document.slice(0, position) + text + document.slice(position);
  });
