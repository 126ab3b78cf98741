import type { ComponentEntry } from '../../common/content.ts';
import { isRecord } from '../../common/is-record.ts';

/** An image as content carries it; its URL may be relative to the storefront. */
interface ContentImage {
  url: string;
  alt?: string;
}

function imageOf(value: unknown): ContentImage | null {
  return isRecord(value) && typeof value.url === 'string' && value.url !== ''
    ? { url: value.url, alt: typeof value.alt === 'string' ? value.alt : undefined }
    : null;
}

/** An absolute URL on the storefront for a content URL; null for anything that is not http(s). */
export function absoluteUrl(url: string, siteUrl: string): string | null {
  try {
    const resolved = new URL(url, `${siteUrl}/`);
    return resolved.protocol === 'https:' || resolved.protocol === 'http:' ? resolved.href : null;
  } catch {
    return null;
  }
}

/** The page's hero image (the first hero component that has one): what link previews show. */
export function heroImage(components: ComponentEntry[], siteUrl: string): string | null {
  for (const component of components) {
    if (component._content_type_uid !== 'hero') continue;
    const image = imageOf(component.image);
    const url = image && absoluteUrl(image.url, siteUrl);
    if (url) return url;
  }
  return null;
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');
const amountOf = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
const currencyOf = (value: unknown): string | null =>
  typeof value === 'string' && /^[A-Z]{3}$/.test(value) ? value : null;
const countryOf = (value: unknown): string | null =>
  typeof value === 'string' && /^[A-Z]{2}$/.test(value) ? value : null;

/** A GTIN-8, -12, -13 or -14 whose check digit is right; anything else is no GTIN. */
export function validGtin(value: unknown): string | null {
  if (typeof value !== 'string' || !/^(\d{8}|\d{12,14})$/.test(value)) return null;
  const digits = [...value].map(Number);
  const check = digits.pop() ?? 0;
  // Weights 3, 1, 3, … from the digit next to the check digit leftwards.
  const sum = digits.reverse().reduce((s, d, i) => s + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check ? value : null;
}

/** `{ min, max }` whole days as a QuantitativeValue; null unless 0 ≤ min ≤ max. */
function days(value: unknown): object | null {
  if (!isRecord(value)) return null;
  const { min, max } = value;
  if (!Number.isInteger(min) || !Number.isInteger(max) || (min as number) < 0 || (min as number) > (max as number))
    return null;
  return { '@type': 'QuantitativeValue', minValue: min, maxValue: max, unitCode: 'DAY' };
}

/** The feature list's `shipping` (rate, country, handling and transit days) as OfferShippingDetails. */
function shippingDetails(value: unknown): object | null {
  if (!isRecord(value)) return null;
  const rate = isRecord(value.rate) ? value.rate : {};
  const amount = amountOf(rate.amount);
  const currency = currencyOf(rate.currency);
  const country = countryOf(value.country);
  const handling = days(value.handlingDays);
  const transit = days(value.transitDays);
  if (amount === null || !currency || !country || !handling || !transit) return null;
  return {
    '@type': 'OfferShippingDetails',
    shippingRate: { '@type': 'MonetaryAmount', value: amount, currency },
    shippingDestination: { '@type': 'DefinedRegion', addressCountry: country },
    deliveryTime: { '@type': 'ShippingDeliveryTime', handlingTime: handling, transitTime: transit },
  };
}

const RETURN_METHODS = new Set(['ReturnByMail', 'ReturnInStore', 'ReturnAtKiosk']);
const RETURN_FEES = new Set(['FreeReturn', 'ReturnFeesCustomerResponsibility', 'ReturnShippingFees']);

/** The feature list's `returnPolicy` (country, days, method, fees) as a MerchantReturnPolicy. */
function returnPolicy(value: unknown): object | null {
  if (!isRecord(value)) return null;
  const country = countryOf(value.country);
  const returnDays = value.days;
  if (!country || !Number.isInteger(returnDays) || (returnDays as number) < 1) return null;
  const method = typeof value.method === 'string' && RETURN_METHODS.has(value.method) ? value.method : null;
  const fees = typeof value.fees === 'string' && RETURN_FEES.has(value.fees) ? value.fees : null;
  return {
    '@type': 'MerchantReturnPolicy',
    applicableCountry: country,
    returnPolicyCategory: 'https://schema.org/MerchantReturnFiniteReturnWindow',
    merchantReturnDays: returnDays,
    ...(method ? { returnMethod: `https://schema.org/${method}` } : {}),
    ...(fees ? { returnFees: `https://schema.org/${fees}` } : {}),
  };
}

/**
 * The product a product page presents: its feature list's product (name, brand, GTIN, MPN), the
 * offer with its shipping details and return policy, and the page's hero image. A field that is
 * missing or malformed leaves its property out; it never makes the data invalid.
 */
export function productJsonLd(components: ComponentEntry[], pageUrl: string, image: string | null): object | null {
  const list = components.find((c) => c._content_type_uid === 'product_feature_list');
  const product = list && isRecord(list.product) ? list.product : null;
  const name = text(product?.name);
  if (!list || !name) return null;
  const price = isRecord(list.price) ? list.price : null;
  const amount = amountOf(price?.amount);
  const currency = typeof price?.currency === 'string' ? price.currency : null;
  const shipping = shippingDetails(list.shipping);
  const returns = returnPolicy(list.returnPolicy);
  const offer =
    amount !== null && currency
      ? {
          '@type': 'Offer',
          price: amount.toFixed(2),
          priceCurrency: currency,
          url: pageUrl,
          availability: 'https://schema.org/InStock',
          ...(shipping ? { shippingDetails: shipping } : {}),
          ...(returns ? { hasMerchantReturnPolicy: returns } : {}),
        }
      : null;
  const brand = text(product?.brand);
  const gtin = validGtin(product?.gtin);
  const mpn = text(product?.mpn).slice(0, 70);
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name,
    ...(text(product?.id) ? { sku: text(product?.id) } : {}),
    ...(brand ? { brand: { '@type': 'Brand', name: brand } } : {}),
    ...(gtin ? { gtin } : {}),
    ...(mpn ? { mpn } : {}),
    ...(image ? { image: [image] } : {}),
    ...(offer ? { offers: offer } : {}),
  };
}

/** The brand and the storefront as a whole, on its home page. */
export function homeJsonLd(siteName: string, siteUrl: string, locale: string, logo: string): object[] {
  const home = `${siteUrl}/`;
  return [
    { '@context': 'https://schema.org', '@type': 'Organization', name: siteName, url: home, logo },
    { '@context': 'https://schema.org', '@type': 'WebSite', name: siteName, url: home, inLanguage: locale },
  ];
}
