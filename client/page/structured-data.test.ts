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
  ) as unknown as Record<string, unknown>;
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
  const [org, site] = homeJsonLd('Halden', SITE, 'en-GB', `${SITE}/icons/icon-512.png`) as unknown as Record<
    string,
    unknown
  >[];
  t.equal(org?.['@type'], 'Organization');
  t.equal(site?.['@type'], 'WebSite');
  t.equal(site?.url, `${SITE}/`);
  t.equal(site?.inLanguage, 'en-GB');
  t.same([...missingRequired(org ?? {}), ...missingRequired(site ?? {})], []);
});

t.test('merchant fields: brand, GTIN, MPN, shipping and returns; a malformed one is left out alone', async (t) => {
  const good = {
    product: { id: '4711', name: 'A', brand: 'Halden', gtin: '2000000047119', mpn: 'HDW-AS60-14' },
    price: { amount: 899, currency: 'EUR' },
    shipping: {
      rate: { amount: 0, currency: 'EUR' },
      country: 'DE',
      handlingDays: { min: 0, max: 1 },
      transitDays: { min: 1, max: 4 },
    },
    returnPolicy: { country: 'DE', days: 30, method: 'ReturnByMail', fees: 'FreeReturn' },
  };
  const ld = (fields: Record<string, unknown>) =>
    productJsonLd([features({ ...good, ...fields })], `${SITE}/x`, null) as unknown as Record<string, unknown> & {
      offers: Record<string, unknown>;
    };
  const full = ld({});
  t.same(full.brand, { '@type': 'Brand', name: 'Halden' });
  t.equal(full.gtin, '2000000047119');
  t.equal(full.mpn, 'HDW-AS60-14');
  t.same(full.offers.shippingDetails, {
    '@type': 'OfferShippingDetails',
    shippingRate: { '@type': 'MonetaryAmount', value: 0, currency: 'EUR' },
    shippingDestination: { '@type': 'DefinedRegion', addressCountry: 'DE' },
    deliveryTime: {
      '@type': 'ShippingDeliveryTime',
      handlingTime: { '@type': 'QuantitativeValue', minValue: 0, maxValue: 1, unitCode: 'DAY' },
      transitTime: { '@type': 'QuantitativeValue', minValue: 1, maxValue: 4, unitCode: 'DAY' },
    },
  });
  t.same(full.offers.hasMerchantReturnPolicy, {
    '@type': 'MerchantReturnPolicy',
    applicableCountry: 'DE',
    returnPolicyCategory: 'https://schema.org/MerchantReturnFiniteReturnWindow',
    merchantReturnDays: 30,
    returnMethod: 'https://schema.org/ReturnByMail',
    returnFees: 'https://schema.org/FreeReturn',
  });

  const product = good.product;
  const table: [string, Record<string, unknown>, (v: ReturnType<typeof ld>) => unknown][] = [
    ['blank brand', { product: { ...product, brand: ' ' } }, (v) => v.brand],
    ['brand as an object', { product: { ...product, brand: { name: 'X' } } }, (v) => v.brand],
    ['GTIN with a wrong check digit', { product: { ...product, gtin: '2000000047118' } }, (v) => v.gtin],
    ['GTIN with letters', { product: { ...product, gtin: '20000000471AB' } }, (v) => v.gtin],
    ['GTIN as a number', { product: { ...product, gtin: 2000000047119 } }, (v) => v.gtin],
    ['MPN as a number', { product: { ...product, mpn: 42 } }, (v) => v.mpn],
    ['shipping as text', { shipping: 'free' }, (v) => v.offers.shippingDetails],
    [
      'shipping without a country',
      { shipping: { ...good.shipping, country: 'Deutschland' } },
      (v) => v.offers.shippingDetails,
    ],
    [
      'shipping rate negative',
      { shipping: { ...good.shipping, rate: { amount: -1, currency: 'EUR' } } },
      (v) => v.offers.shippingDetails,
    ],
    [
      'transit days the wrong way round',
      { shipping: { ...good.shipping, transitDays: { min: 5, max: 1 } } },
      (v) => v.offers.shippingDetails,
    ],
    [
      'handling days missing',
      { shipping: { ...good.shipping, handlingDays: undefined } },
      (v) => v.offers.shippingDetails,
    ],
    ['return policy as a list', { returnPolicy: [] }, (v) => v.offers.hasMerchantReturnPolicy],
    [
      'return days as text',
      { returnPolicy: { ...good.returnPolicy, days: '30' } },
      (v) => v.offers.hasMerchantReturnPolicy,
    ],
    [
      'unknown return method',
      { returnPolicy: { ...good.returnPolicy, method: 'ByPigeon' } },
      (v) => (v.offers.hasMerchantReturnPolicy as Record<string, unknown>).returnMethod,
    ],
    [
      'unknown return fees',
      { returnPolicy: { ...good.returnPolicy, fees: 'Gratis' } },
      (v) => (v.offers.hasMerchantReturnPolicy as Record<string, unknown>).returnFees,
    ],
  ];
  for (const [name, fields, property] of table) {
    const value = ld(fields);
    t.equal(property(value), undefined, `${name}: left out`);
    t.equal(value.name, 'A', `${name}: the product is still described`);
    t.equal(value.offers.price, '899.00', `${name}: with its offer`);
    t.same(missingRequired(value), [], `${name}: required properties present`);
  }
});
