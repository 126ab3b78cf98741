import { type FragmentDefinitionNode, getOperationAST, Kind, parse, validate } from 'graphql';
import t from 'tap';
import { operationCost, operationLimitsRule } from './operation-limits.ts';
import { schema } from './schema.ts';
import { fragmentChain } from './test-documents.ts';

const LIMITS = { maxCost: 2000, maxListArgument: 50, defaultListSize: 10 };

function measure(source: string) {
  const document = parse(source);
  const operation = getOperationAST(document);
  if (!operation) throw new Error('no operation');
  const fragments = Object.fromEntries(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  const root = operation.operation === 'subscription' ? schema.getSubscriptionType() : schema.getQueryType();
  if (!root) throw new Error('no root');
  return { cost: operationCost(operation, fragments, root, LIMITS) };
}

/** The codes of the errors the limits rule reports for `source`. */
function refusals(source: string, maxDepth = 3): unknown[] {
  return validate(schema, parse(source), [operationLimitsRule({ ...LIMITS, maxDepth })]).map((e) => e.extensions.code);
}

t.test('cost counts the values an answer can hold: lists multiply, aliases and fragments add up', async (t) => {
  const table: [string, string, number][] = [
    ['one scalar', '{ product(id:"1",locale:"en-GB") { id } }', 2],
    ['literal list of 3', '{ products(ids:["1","2","3"],locale:"en-GB") { id name } }', 9],
    ['variable list counts at its cap', 'query($i:[ID!]!){ products(ids:$i,locale:"en-GB") { id } }', 100],
    ['two aliases cost twice', '{ a:products(ids:["1"],locale:"x"){id} b:products(ids:["1"],locale:"x"){id} }', 4],
    [
      'a fragment counts where it is spread',
      '{ product(id:"1",locale:"x"){...F} } fragment F on Product { id name }',
      3,
    ],
    [
      'a list without a list argument counts as 10',
      '{ product(id:"1",locale:"x"){ pricingFootnotesContainer { pricingFootnotes { code } } } }',
      1 + 1 + 10 * 2,
    ],
  ];
  for (const [name, source, expected] of table) t.equal(measure(source).cost, expected, name);
});

t.test('the attack is far over the limit, the island queries far under it', async (t) => {
  const aliases = Array.from({ length: 330 }, (_, i) => `a${i}:products(ids:$i,locale:"x"){...F}`).join(' ');
  const attack = measure(`query($i:[ID!]!){${aliases}} fragment F on Product{id name price{amount currency}}`);
  t.ok(attack.cost > LIMITS.maxCost, `attack: ${attack.cost} (stops counting past the limit)`);
  const island = measure(
    'query($id:ID!,$l:String!){product(id:$id,locale:$l){...P}} fragment P on Product{id locale version price{amount currency} availability pricingFootnotesContainer{pricingFootnotes{code formattedFootnote}}}',
  );
  t.ok(island.cost < 100, `live price island: ${island.cost}`);
});

t.test('depth follows fragments; a fragment cycle is counted once, not forever', async (t) => {
  t.same(refusals('{ product(id:"1",locale:"x") { price { amount } } }'), [], 'three levels within three');
  t.same(refusals('{ product(id:"1",locale:"x") { price { amount } } }', 2), ['OPERATION_TOO_DEEP']);
  const throughFragments =
    '{ product(id:"1",locale:"x") { ...A } } fragment A on Product { price { ...B } } fragment B on Money { amount }';
  t.same(refusals(throughFragments), [], 'spreads add no level');
  t.same(refusals(throughFragments, 2), ['OPERATION_TOO_DEEP'], 'the fields in fragments do');
  t.same(refusals('{ product(id:"1",locale:"x") { ...A } } fragment A on Product { ...A id }'), []);
});

t.test('a fragment is walked once, not at every spread: a chain doubling at each level is cheap', async (t) => {
  // Unmemoised, 40 levels are 2^40 visits: this test would not finish.
  const chain = fragmentChain(40);
  t.equal(measure(chain).cost, 1, 'the spreads add nothing; only the product counts');
  t.same(refusals(chain), []);
  const costly = chain.replace('...Unknown', 'id name');
  t.same(refusals(costly), ['OPERATION_TOO_COSTLY'], 'fields at the end of the chain count at every spread');
});
