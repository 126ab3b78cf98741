import t from 'tap';
import type { ComponentEntry } from '../../common/content.ts';
import { absoluteUrl, heroImage, homeJsonLd, productJsonLd } from './structured-data.ts';

const SITE = 'https://www.halden.co.uk';
const hero = (image?: unknown): ComponentEntry => ({ _content_type_uid: 'hero', uid: 'h', headline: 'X', image });
const features = (fields: Record<string, unknown>): ComponentEntry => ({
  _content_type_uid: 'product_feature_list',
  uid: 'f',
  title: 'Features',
  ...fields,
});

/**
 * What schema.org and search engines require of each type we emit: a Product needs a name and, to
 * be a rich result, offers; an Offer needs price and priceCurrency; Organization and WebSite a
 * name and url. Checked against every object the builders return.
 */
const REQUIRED: Record<string, string[]> = {
  Product: ['name'],
  Offer: ['price', 'priceCurrency'],
  Organization: ['name', 'url'],
  WebSite: ['name', 'url'],
};
function missingRequired(value: Record<string, unknown>): string[] {
  const missing = (REQUIRED[value['@type'] as string] ?? ['@type']).filter((key) => value[key] === undefined);
  const nested = Object.values(value).flatMap((v) =>
    typeof v === 'object' && v !== null && !Array.isArray(v) && '@type' in v
      ? missingRequired(v as Record<string, unknown>)
      : [],
  );
  return [...missing, ...nested];
}

t.test('content URLs become absolute on the storefront; other schemes are refused', async (t) => {
  const table: [string, string | null][] = [
    ['/images/oven.svg', `${SITE}/images/oven.svg`],
    ['images/oven.svg', `${SITE}/images/oven.svg`],
    ['https://cdn.example/a.png', 'https://cdn.example/a.png'],
    ['javascript:alert(1)', null],
    ['data:image/png;base64,AAAA', null],
  ];
  for (const [input, expected] of table) t.equal(absoluteUrl(input, SITE), expected, input);
});

t.test('the hero image is the first hero that has one', async (t) => {
  t.equal(
    heroImage([hero(), hero({ url: '/images/a.svg', alt: '' }), hero({ url: '/images/b.svg' })], SITE),
    `${SITE}/images/a.svg`,
  );
  t.equal(heroImage([features({}), hero({ url: '' }), hero('broken')], SITE), null, 'none usable');
});

t.test('a product page describes its product with price and currency', async (t) => {
  const ld = productJsonLd(
    [features({ product: { id: '4711', name: 'AquaSense 60' }, price: { amount: 779.5, currency: 'GBP' } })],
    `${SITE}/cs/kitchen/aquasense-60-4711`,
    `${SITE}/images/dishwasher.svg`,
  ) as Record<string, unknown>;
  t.same(ld, {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: 'AquaSense 60',
    sku: '4711',
    image: [`${SITE}/images/dishwasher.svg`],
    offers: {
      '@type': 'Offer',
      price: '779.50',
      priceCurrency: 'GBP',
      url: `${SITE}/cs/kitchen/aquasense-60-4711`,
      availability: 'https://schema.org/InStock',
    },
  });
  t.same(missingRequired(ld), []);
});

t.test('odd product content gives less data, never invalid data', async (t) => {
  const table: [string, ComponentEntry[], 'none' | 'no-offer' | 'full'][] = [
    ['no feature list', [hero({ url: '/a.svg' })], 'none'],
    ['no product', [features({})], 'none'],
    ['blank name', [features({ product: { id: '1', name: '  ' } })], 'none'],
    ['no price', [features({ product: { id: '1', name: 'A' } })], 'no-offer'],
    [
      'price as text',
      [features({ product: { id: '1', name: 'A' }, price: { amount: '9', currency: 'EUR' } })],
      'no-offer',
    ],
    ['price without currency', [features({ product: { id: '1', name: 'A' }, price: { amount: 9 } })], 'no-offer'],
    ['full', [features({ product: { name: 'A' }, price: { amount: 0, currency: 'EUR' } })], 'full'],
  ];
  for (const [name, components, expected] of table) {
    const ld = productJsonLd(components, `${SITE}/x`, null) as Record<string, unknown> | null;
    if (expected === 'none') t.equal(ld, null, name);
    else {
      t.equal(ld?.offers !== undefined, expected === 'full', name);
      t.same(missingRequired(ld as Record<string, unknown>), [], `${name}: required properties present`);
    }
  }
});

t.test('home pages carry the Organization and the WebSite', async (t) => {
  const [org, site] = homeJsonLd('Halden', SITE, 'en-GB', `${SITE}/icons/icon-512.png`) as Record<string, unknown>[];
  t.equal(org?.['@type'], 'Organization');
  t.equal(site?.['@type'], 'WebSite');
  t.equal(site?.url, `${SITE}/`);
  t.equal(site?.inLanguage, 'en-GB');
  t.same([...missingRequired(org ?? {}), ...missingRequired(site ?? {})], []);
});
