import type { OfferLeaf, ProductLeaf, WithContext } from 'schema-dts';

/**
 * Checked by the typecheck, never run: schema-dts (Google's typings of schema.org) refuses what
 * schema.org does not define, so the JSON-LD builders typed with it (client/page/structured-data.ts)
 * cannot emit a misfit. Each line below is such a misfit; if the types stopped refusing one, its
 * `@ts-expect-error` would be unused and the typecheck would fail.
 */
export const misfits: WithContext<ProductLeaf>[] = [
  // @ts-expect-error: schema.org's Product has no shippingDetail.
  { '@context': 'https://schema.org', '@type': 'Product', name: 'A', shippingDetail: {} },
  {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: 'A',
    // @ts-expect-error: returnFees is a ReturnFeesEnumeration member, not free text.
    offers: { '@type': 'Offer', hasMerchantReturnPolicy: { '@type': 'MerchantReturnPolicy', returnFees: 'Gratis' } },
  },
];

// @ts-expect-error: availability is an ItemAvailability member.
export const offer: OfferLeaf = { '@type': 'Offer', availability: 'https://schema.org/InStok' };
