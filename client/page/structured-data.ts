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

/** The product a product page presents: its feature list's product, price and the page's hero image. */
export function productJsonLd(components: ComponentEntry[], pageUrl: string, image: string | null): object | null {
  const list = components.find((c) => c._content_type_uid === 'product_feature_list');
  const product = list && isRecord(list.product) ? list.product : null;
  const name = product && typeof product.name === 'string' ? product.name.trim() : '';
  if (!list || !name) return null;
  const price = isRecord(list.price) ? list.price : null;
  const offer =
    price && typeof price.amount === 'number' && Number.isFinite(price.amount) && typeof price.currency === 'string'
      ? {
          '@type': 'Offer',
          price: price.amount.toFixed(2),
          priceCurrency: price.currency,
          url: pageUrl,
          availability: 'https://schema.org/InStock',
        }
      : null;
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name,
    ...(product && typeof product.id === 'string' && product.id ? { sku: product.id } : {}),
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
