import type { Translate } from '../../client/i18n/messages.ts';
import type { RenderContext } from '../../client/render/context.ts';
import type { Footnote } from '../../common/content.ts';
import { intlLocale } from '../../common/locales.ts';
import { type ImageSrcSet, imageSrcSet } from '../images/srcset.ts';
import type { AssetManifest } from './assets.ts';

const CMS_IMAGES_ONLY = imageSrcSet(undefined);

const priceFormats = new Map<string, Intl.NumberFormat>();

/** Intl formatters are costly to build: one per locale and currency for the life of the process. */
export function formatPrice(locale: string, amount: number, currency: string): string {
  // Whole amounts show no decimals, others two: each needs its own formatter.
  const key = `${locale}|${currency}|${Number.isInteger(amount)}`;
  let format = priceFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(intlLocale(locale), {
      style: 'currency',
      currency,
      maximumFractionDigits: Number.isInteger(amount) ? 0 : 2,
    });
    priceFormats.set(key, format);
  }
  return format.format(amount);
}

export function createRenderContext(options: {
  locale: string;
  t: Translate;
  preview: boolean;
  assets: AssetManifest;
  footnote?: (id: string) => Footnote | undefined;
  firstHeroUid?: string;
  dev: boolean;
  /** GRAPHQL_URL when the site uses another data backend; islands then connect there. */
  dataEndpoint?: string;
  /** The store's raster images (the image route); without it only CMS-hosted images get a srcset. */
  imageSrcSet?: ImageSrcSet;
}): RenderContext {
  const { preview } = options;
  return {
    locale: options.locale,
    t: options.t,
    formatPrice: (amount, currency) => formatPrice(options.locale, amount, currency),
    footnote: options.footnote ?? (() => undefined),
    citedAnchors: new Set(),
    // Editing tags only in preview, and never on generated parts that no field fills.
    cslp: preview ? (path) => (path ? { 'data-cslp': path } : {}) : () => ({}),
    islandUrl: (name) => options.assets.islandUrl(name),
    imageSrcSet: options.imageSrcSet ?? CMS_IMAGES_ONLY,
    firstHeroUid: options.firstHeroUid,
    dev: options.dev,
    dataEndpoint: options.dataEndpoint,
  };
}
