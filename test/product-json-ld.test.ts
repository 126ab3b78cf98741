import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import t from 'tap';
import { demoServer } from './helpers.ts';

/**
 * Product pages describe their product the way merchant listings read it: brand, a GTIN or MPN,
 * the offer's shipping details and return policy. On every storefront, in every language. That
 * they fit schema.org's shapes the typecheck proves (client/page/structured-data.ts builds them as
 * schema-dts types, and test/schema-org-types.ts shows those types refuse a misfit).
 */
let app: FastifyInstance;
t.before(async () => {
  app = await demoServer();
});
t.teardown(() => app.close());

const sites = JSON.parse(readFileSync('config/sites.json', 'utf8')).sites as { host: string; locales: string[] }[];

type Ld = Record<string, unknown>;
function productLd(html: string): Ld | undefined {
  return [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)]
    .map((m) => JSON.parse(m[1] ?? '') as Ld)
    .find((v) => v['@type'] === 'Product');
}

/** The dishwasher page (4711) of a locale: its canonical path, from the page the content holds. */
function dishwasherPath(locale: string, locales: string[]): string {
  const page = JSON.parse(readFileSync(`content/${locale}/pages/4711.json`, 'utf8'));
  const segment = page.url_taxonomy[0].url_taxonomy_segments[0].segment;
  const prefix = locales.length > 1 ? `/${locale.slice(0, 2)}` : '';
  return `${prefix}/cs/${segment}/${page.slug}-4711`;
}

const rows = sites.flatMap((s) => s.locales.map((locale) => ({ host: s.host, locale, locales: s.locales })));

t.test('every storefront and language: brand, GTIN and MPN, shipping details and return policy', async (t) => {
  t.equal(rows.length, 29, 'all 29 locales');
  for (const { host, locale, locales } of rows) {
    const path = dishwasherPath(locale, locales);
    const res = await app.inject({ url: path, headers: { host } });
    t.equal(res.statusCode, 200, `${host}${path}`);
    const ld = productLd(res.body);
    if (!ld) {
      t.fail(`${host} ${locale}: no Product JSON-LD`);
      continue;
    }
    const country = locale.slice(3);
    t.match(
      ld,
      {
        brand: { '@type': 'Brand', name: 'Halden' },
        gtin: /^\d{13}$/,
        mpn: /^[A-Z0-9-]+$/,
        offers: {
          '@type': 'Offer',
          shippingDetails: {
            '@type': 'OfferShippingDetails',
            shippingRate: { '@type': 'MonetaryAmount', currency: /^[A-Z]{3}$/ },
            shippingDestination: { '@type': 'DefinedRegion', addressCountry: country },
            deliveryTime: {
              '@type': 'ShippingDeliveryTime',
              handlingTime: { '@type': 'QuantitativeValue', unitCode: 'DAY' },
              transitTime: { '@type': 'QuantitativeValue', unitCode: 'DAY' },
            },
          },
          hasMerchantReturnPolicy: {
            '@type': 'MerchantReturnPolicy',
            applicableCountry: country,
            returnPolicyCategory: 'https://schema.org/MerchantReturnFiniteReturnWindow',
          },
        },
      },
      `${host} ${locale}`,
    );
    const offers = ld.offers as Ld | undefined;
    const rate = (offers?.shippingDetails as Ld | undefined)?.shippingRate as Ld | undefined;
    t.equal(rate?.currency, offers?.priceCurrency, `${locale}: shipping in the offer's currency`);
  }
});
