import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { formatPrice } from '../render/context.ts';
import { createCatalog, loadCatalog, type Product } from './catalog.ts';
import { startDemoChanges } from './demo-changer.ts';

t.test('the demo catalog holds every product of the content store, priced per locale', async (t) => {
  const catalog = await loadCatalog('content');
  t.same(catalog.ids().sort(), ['4711', '4712', '5810', '6020']);
  t.equal(catalog.locales('4712').length, 29, 'one entry per storefront locale');
  const oven = catalog.get('4712', 'en-GB');
  t.match(oven, { id: '4712', locale: 'en-GB', name: 'PureHeat 70 oven', availability: 'in_stock', version: 1 });
  t.same(oven?.price, { amount: 949, currency: 'GBP', formatted: formatPrice('en-GB', 949, 'GBP') });
  t.equal(catalog.get('4712', 'de-CH')?.price.currency, 'CHF');
  t.same(
    oven?.pricingFootnotesContainer?.pricingFootnotes.map((f) => f.code),
    ['RRP', 'DELIVERY'],
    "the feature list's footnotes win over a teaser's shorter list",
  );
  t.equal(catalog.get('9999', 'en-GB'), undefined);
});

t.test('a missing content folder is an empty catalog, not a crash', async (t) => {
  const catalog = await loadCatalog('no/such/folder');
  t.same(catalog.ids(), []);
});

const seeds = [
  { id: '1', locale: 'en-GB', name: 'One', amount: 100, currency: 'GBP' },
  { id: '2', locale: 'en-GB', name: 'Two', amount: 200, currency: 'GBP' },
  { id: '1', locale: 'de-DE', name: 'Eins', amount: 120, currency: 'EUR' },
];

t.test('a change reaches the watchers of that product in that locale only', async (t) => {
  const catalog = createCatalog(seeds);
  const watching = catalog.watch(['1'], 'en-GB');
  const next = watching.next();
  catalog.update({ id: '1', locale: 'de-DE', amount: 99 });
  catalog.update({ id: '2', locale: 'en-GB', amount: 99 });
  const changed = catalog.update({ id: '1', locale: 'en-GB', amount: 90, availability: 'low_stock' });
  t.match(changed, { version: 2, availability: 'low_stock', price: { amount: 90, formatted: '£90' } });
  t.same((await next).value, changed);
  t.equal(catalog.watchers(), 1);
  await watching.return?.();
  t.equal(catalog.watchers(), 0, 'return() lets go of the listener');
  t.same(await watching.next(), { value: undefined, done: true });
});

t.test('a slow watcher gets the latest change of each product, not a backlog', async (t) => {
  const catalog = createCatalog(seeds);
  const watching = catalog.watch(['1', '2'], 'en-GB');
  for (const amount of [101, 102, 103]) catalog.update({ id: '1', locale: 'en-GB', amount });
  catalog.update({ id: '2', locale: 'en-GB', amount: 201 });
  const first = (await watching.next()).value as Product;
  const second = (await watching.next()).value as Product;
  t.same([first.id, first.price.amount, second.id, second.price.amount], ['1', 103, '2', 201]);
  await watching.return?.();
});

t.test('a watcher waiting for a change ends when it is returned', async (t) => {
  const catalog = createCatalog(seeds);
  const watching = catalog.watch(['1'], 'en-GB');
  const pending = watching.next();
  await watching.return?.();
  t.same(await pending, { value: undefined, done: true });
});

t.test('changes are checked', async (t) => {
  const catalog = createCatalog(seeds);
  t.throws(() => catalog.update({ id: '1', locale: 'en-GB', amount: -1 }), RangeError);
  t.throws(() => catalog.update({ id: '1', locale: 'en-GB', amount: Number.NaN }), RangeError);
  t.throws(() => catalog.update({ id: '1', locale: 'en-GB', availability: 'gone' as never }), RangeError);
  t.equal(catalog.update({ id: '3', locale: 'en-GB', amount: 1 }), undefined, 'unknown product');
  t.equal(catalog.get('1', 'en-GB')?.version, 1, 'a refused change changes nothing');
});

t.test('the demo flips one product at a time between list price and a 10 % offer, in every locale', async (t) => {
  const catalog = createCatalog(seeds);
  const stop = startDemoChanges(catalog, 10);
  // The demo's timer is unref'd on purpose; this one keeps the test process alive meanwhile.
  const alive = setInterval(() => {}, 1000);
  t.teardown(() => {
    stop();
    clearInterval(alive);
  });
  const watching = catalog.watch(['1'], 'de-DE');
  const offer = (await watching.next()).value as Product;
  t.match(offer, { price: { amount: 108 }, availability: 'low_stock' });
  t.match(catalog.get('1', 'en-GB'), { price: { amount: 90 }, availability: 'low_stock' });
  const back = (await watching.next()).value as Product;
  t.match(back, { price: { amount: 120 }, availability: 'in_stock' }, 'then back to the list price');
  await watching.return?.();
});

t.test('content the catalogue cannot use is skipped and named, never thrown', async (t) => {
  const dir = t.testdir();
  const folder = join(dir, 'en-GB', 'page_template');
  mkdirSync(folder, { recursive: true });
  const product = (id: string) => ({
    _content_type_uid: 'product_feature_list',
    uid: `f-${id}`,
    product: { id, name: `P ${id}` },
    price: { amount: 10, currency: 'GBP' },
  });
  const files: Record<string, unknown> = {
    'good.json': { body_components: [null, 7, product('1')] },
    'null-product.json': { body_components: [{ ...product('2'), product: null, price: null }] },
    'bad-currency.json': { body_components: [{ ...product('3'), price: { amount: 5, currency: 'pounds' } }] },
    'teasers.json': { body_components: [{ _content_type_uid: 'product_teaser_grid', products: [null, 'x'] }] },
    'list.json': [],
    'zones.json': { header_components: 'oops', body_components: { a: 1 } },
  };
  for (const [name, value] of Object.entries(files)) writeFileSync(join(folder, name), JSON.stringify(value));
  writeFileSync(join(folder, 'broken.json'), '{ "body_components": [');
  const warnings: { where: string; path: string }[] = [];
  const catalog = await loadCatalog(dir, (w) => warnings.push(w));
  t.same(catalog.ids(), ['1'], 'the usable product is still there');
  t.match(
    warnings.sort((a, b) => a.where.localeCompare(b.where)),
    [
      { where: join('en-GB', 'page_template', 'broken.json'), path: '$' },
      { where: join('en-GB', 'page_template', 'list.json'), path: '$' },
    ],
  );
});
