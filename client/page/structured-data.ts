import type {
  MerchantReturnEnumeration,
  MerchantReturnPolicy,
  OfferLeaf,
  OfferShippingDetails,
  Organization,
  ProductLeaf,
  QuantitativeValue,
  ReturnFeesEnumeration,
  ReturnMethodEnumeration,
  WebSite,
  WithContext,
} from 'schema-dts';
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
function days(value: unknown): QuantitativeValue | null {
  if (!isRecord(value)) return null;
  const { min, max } = value;
  if (typeof min !== 'number' || typeof max !== 'number' || !Number.isInteger(min) || !Number.isInteger(max))
    return null;
  if (min < 0 || min > max) return null;
  return { '@type': 'QuantitativeValue', minValue: min, maxValue: max, unitCode: 'DAY' };
}

/** The feature list's `shipping` (rate, country, handling and transit days) as OfferShippingDetails. */
function shippingDetails(value: unknown): OfferShippingDetails | null {
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

const RETURN_METHODS = ['ReturnByMail', 'ReturnInStore', 'ReturnAtKiosk'] as const;
const RETURN_FEES = ['FreeReturn', 'ReturnFeesCustomerResponsibility', 'ReturnShippingFees'] as const;
const FINITE_WINDOW: MerchantReturnEnumeration = 'https://schema.org/MerchantReturnFiniteReturnWindow';

/** The schema.org URL of an enumeration member that `members` lists, or null. */
function member<M extends string>(members: readonly M[], value: unknown): `https://schema.org/${M}` | null {
  const found = members.find((m) => m === value);
  return found ? `https://schema.org/${found}` : null;
}

/** The feature list's `returnPolicy` (country, days, method, fees) as a MerchantReturnPolicy. */
function returnPolicy(value: unknown): MerchantReturnPolicy | null {
  if (!isRecord(value)) return null;
  const country = countryOf(value.country);
  const returnDays = value.days;
  if (!country || typeof returnDays !== 'number' || !Number.isInteger(returnDays) || returnDays < 1) return null;
  const policy: MerchantReturnPolicy = {
    '@type': 'MerchantReturnPolicy',
    applicableCountry: country,
    returnPolicyCategory: FINITE_WINDOW,
    merchantReturnDays: returnDays,
  };
  const method: ReturnMethodEnumeration | null = member(RETURN_METHODS, value.method);
  if (method) policy.returnMethod = method;
  const fees: ReturnFeesEnumeration | null = member(RETURN_FEES, value.fees);
  if (fees) policy.returnFees = fees;
  return policy;
}

/**
 * The product a product page presents: its feature list's product (name, brand, GTIN, MPN), the
 * offer with its shipping details and return policy, and the page's hero image. A field that is
 * missing or malformed leaves its property out; it never makes the data invalid.
 */
export function productJsonLd(
  components: ComponentEntry[],
  pageUrl: string,
  image: string | null,
): WithContext<ProductLeaf> | null {
  const list = components.find((c) => c._content_type_uid === 'product_feature_list');
  const product = list && isRecord(list.product) ? list.product : null;
  const name = text(product?.name);
  if (!list || !name) return null;
  const price = isRecord(list.price) ? list.price : null;
  const amount = amountOf(price?.amount);
  const currency = typeof price?.currency === 'string' ? price.currency : null;
  const shipping = shippingDetails(list.shipping);
  const returns = returnPolicy(list.returnPolicy);
  const ld: WithContext<ProductLeaf> = { '@context': 'https://schema.org', '@type': 'Product', name };
  // Optional properties one by one (not spread in), so the compiler refuses a misspelt one too.
  const sku = text(product?.id);
  if (sku) ld.sku = sku;
  const brand = text(product?.brand);
  if (brand) ld.brand = { '@type': 'Brand', name: brand };
  const gtin = validGtin(product?.gtin);
  if (gtin) ld.gtin = gtin;
  const mpn = text(product?.mpn).slice(0, 70);
  if (mpn) ld.mpn = mpn;
  if (image) ld.image = [image];
  if (amount !== null && currency) {
    const offer: OfferLeaf = {
      '@type': 'Offer',
      price: amount.toFixed(2),
      priceCurrency: currency,
      url: pageUrl,
      availability: 'https://schema.org/InStock',
    };
    if (shipping) offer.shippingDetails = shipping;
    if (returns) offer.hasMerchantReturnPolicy = returns;
    ld.offers = offer;
  }
  return ld;
}

/** The brand and the storefront as a whole, on its home page. */
export function homeJsonLd(
  siteName: string,
  siteUrl: string,
  locale: string,
  logo: string,
): [WithContext<Organization>, WithContext<WebSite>] {
  const home = `${siteUrl}/`;
  return [
    { '@context': 'https://schema.org', '@type': 'Organization', name: siteName, url: home, logo },
    { '@context': 'https://schema.org', '@type': 'WebSite', name: siteName, url: home, inLanguage: locale },
  ];
}
