import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sjson from 'secure-json-parse';
import { isRecord } from '../../common/is-record.ts';
import { isValidLocaleCode } from '../../common/locales.ts';
import { formatPrice } from '../render/context.ts';

/**
 * The embedded backend's product data: price and availability per product and locale,
 * seeded from the prices the content store shows, changed in memory, and watched by subscribers.
 */

export type Availability = 'in_stock' | 'low_stock' | 'out_of_stock';
export const AVAILABILITIES: readonly Availability[] = ['in_stock', 'low_stock', 'out_of_stock'];

export interface PricingFootnote {
  code: string;
  formattedFootnote: string;
}

/** One product as one storefront locale shows it; a snapshot, never mutated after it is handed out. */
export interface Product {
  id: string;
  locale: string;
  name: string;
  price: { amount: number; currency: string; formatted: string };
  availability: Availability;
  pricingFootnotesContainer: { pricingFootnotes: PricingFootnote[] } | null;
  /** Grows with every change of this product in this locale, so a client keeps the newest it saw. */
  version: number;
}

export interface ProductSeed {
  id: string;
  locale: string;
  name: string;
  amount: number;
  currency: string;
  availability?: Availability;
  pricingFootnotes?: PricingFootnote[];
}

export interface ProductChange {
  id: string;
  locale: string;
  amount?: number;
  availability?: Availability;
}

export interface Catalog {
  get(id: string, locale: string): Product | undefined;
  ids(): string[];
  /** Locales that have the product. */
  locales(id: string): string[];
  /** Applies a change and tells the product's watchers; undefined when the product is unknown. */
  update(change: ProductChange): Product | undefined;
  /**
   * Changes of these products in this locale, until `return()`. A slow reader gets only the latest
   * change of each product: a price nobody saw is not worth queueing.
   */
  watch(ids: readonly string[], locale: string): AsyncIterableIterator<Product>;
  /** Open watches (the fan-out bench and leak tests read it). */
  watchers(): number;
}

export function createCatalog(seeds: readonly ProductSeed[]): Catalog {
  const products = new Map<string, Product>();
  const listeners = new Map<string, Set<(product: Product) => void>>();
  let open = 0;

  for (const seed of seeds) {
    products.set(key(seed.id, seed.locale), {
      id: seed.id,
      locale: seed.locale,
      name: seed.name,
      price: priceOf(seed.locale, seed.amount, seed.currency),
      availability: seed.availability ?? 'in_stock',
      pricingFootnotesContainer: seed.pricingFootnotes ? { pricingFootnotes: seed.pricingFootnotes } : null,
      version: 1,
    });
  }

  function update(change: ProductChange): Product | undefined {
    const current = products.get(key(change.id, change.locale));
    if (!current) return undefined;
    if (change.amount !== undefined && !(Number.isFinite(change.amount) && change.amount > 0)) {
      throw new RangeError(`A price must be a positive number, got ${change.amount}`);
    }
    if (change.availability !== undefined && !AVAILABILITIES.includes(change.availability)) {
      throw new RangeError(`Unknown availability ${change.availability}`);
    }
    const next: Product = {
      ...current,
      price:
        change.amount === undefined ? current.price : priceOf(current.locale, change.amount, current.price.currency),
      availability: change.availability ?? current.availability,
      version: current.version + 1,
    };
    products.set(key(next.id, next.locale), next);
    for (const listener of listeners.get(key(next.id, next.locale)) ?? []) listener(next);
    return next;
  }

  function watch(ids: readonly string[], locale: string): AsyncIterableIterator<Product> {
    const keys = [...new Set(ids)].map((id) => key(id, locale));
    const pending = new Map<string, Product>();
    let wake: (() => void) | undefined;
    let closed = false;
    const listener = (product: Product) => {
      pending.delete(product.id);
      pending.set(product.id, product);
      wake?.();
    };
    for (const k of keys) {
      const set = listeners.get(k) ?? new Set();
      set.add(listener);
      listeners.set(k, set);
    }
    open++;
    const close = () => {
      if (closed) return;
      closed = true;
      open--;
      for (const k of keys) {
        const set = listeners.get(k);
        set?.delete(listener);
        if (set?.size === 0) listeners.delete(k);
      }
      wake?.();
    };
    const iterator: AsyncIterableIterator<Product> = {
      [Symbol.asyncIterator]: () => iterator,
      async next() {
        while (!closed) {
          const first = pending.values().next();
          if (!first.done) {
            pending.delete(first.value.id);
            return { value: first.value, done: false };
          }
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
        }
        return { value: undefined, done: true };
      },
      async return() {
        close();
        return { value: undefined, done: true };
      },
    };
    return iterator;
  }

  return {
    get: (id, locale) => products.get(key(id, locale)),
    ids: () => [...new Set([...products.values()].map((p) => p.id))],
    locales: (id) => [...products.values()].filter((p) => p.id === id).map((p) => p.locale),
    update,
    watch,
    watchers: () => open,
  };
}

/**
 * Seeds from the content store's page templates: a feature list names the product on its own page
 * (with all its pricing footnotes), a teaser grid only in passing, so the feature list wins.
 */
export async function loadCatalog(
  contentDir: string,
  warn: (details: { where: string; path: string; problem: string }) => void = () => {},
): Promise<Catalog> {
  const seeds = new Map<string, { seed: ProductSeed; fromFeatureList: boolean }>();
  const locales = (await readdir(contentDir, { withFileTypes: true }).catch(() => []))
    .filter((d) => d.isDirectory() && isValidLocaleCode(d.name))
    .map((d) => d.name);
  for (const locale of locales) {
    const folder = join(contentDir, locale, 'page_template');
    const files = (await readdir(folder).catch(() => [])).filter((f) => f.endsWith('.json'));
    for (const file of files) {
      // Content never stops the server: a file the catalogue cannot use is skipped and named.
      const where = join(locale, 'page_template', file);
      let template: unknown;
      try {
        template = sjson.parse(await readFile(join(folder, file), 'utf8'), undefined, {
          protoAction: 'remove',
          constructorAction: 'remove',
        });
      } catch (error) {
        warn({ where, path: '$', problem: `not readable JSON (${(error as Error).message}); no products from it` });
        continue;
      }
      if (!isRecord(template)) {
        warn({ where, path: '$', problem: 'a template must be an object; no products from it' });
        continue;
      }
      for (const found of productsIn(template, locale)) {
        const k = key(found.seed.id, locale);
        const known = seeds.get(k);
        if (!known || (found.fromFeatureList && !known.fromFeatureList)) seeds.set(k, found);
      }
    }
  }
  return createCatalog([...seeds.values()].map((s) => s.seed));
}

function productsIn(template: Record<string, unknown>, locale: string) {
  const found: { seed: ProductSeed; fromFeatureList: boolean }[] = [];
  const components = ['header_components', 'body_components', 'footer_components']
    .flatMap((zone) => (Array.isArray(template[zone]) ? (template[zone] as unknown[]) : []))
    .filter(isRecord);
  for (const c of components) {
    if (c._content_type_uid === 'product_feature_list') {
      const product = isRecord(c.product) ? c.product : {};
      const seed = seedOf({ ...c, id: product.id, name: product.name }, locale);
      if (seed) found.push({ seed, fromFeatureList: true });
    } else if (c._content_type_uid === 'product_teaser_grid' && Array.isArray(c.products)) {
      for (const p of c.products.filter(isRecord)) {
        const seed = seedOf(p, locale);
        if (seed) found.push({ seed, fromFeatureList: false });
      }
    }
  }
  return found;
}

/** A product with an id, a name and a price; anything else in the content is not ours to sell. */
function seedOf(entry: Record<string, unknown>, locale: string): ProductSeed | null {
  const price = isRecord(entry.price) ? entry.price : {};
  if (typeof entry.id !== 'string' || entry.id === '' || typeof entry.name !== 'string') return null;
  if (typeof price.amount !== 'number' || !Number.isFinite(price.amount) || price.amount < 0) return null;
  if (typeof price.currency !== 'string' || !/^[A-Z]{3}$/.test(price.currency)) return null;
  const container = isRecord(entry.pricingFootnotesContainer) ? entry.pricingFootnotesContainer : {};
  const footnotes = Array.isArray(container.pricingFootnotes)
    ? container.pricingFootnotes.filter(
        (f): f is PricingFootnote & Record<string, unknown> =>
          isRecord(f) && typeof f.code === 'string' && typeof f.formattedFootnote === 'string',
      )
    : undefined;
  return {
    id: entry.id,
    locale,
    name: entry.name,
    amount: price.amount,
    currency: price.currency,
    ...(footnotes
      ? { pricingFootnotes: footnotes.map((f) => ({ code: f.code, formattedFootnote: f.formattedFootnote })) }
      : {}),
  };
}

function priceOf(locale: string, amount: number, currency: string) {
  // The same formatter the server render uses, so a live price reads exactly like the rendered one.
  return { amount, currency, formatted: formatPrice(locale, amount, currency) };
}

function key(id: string, locale: string): string {
  return `${locale}|${id}`;
}
