import type { Catalog } from './catalog.ts';

/** Share taken off during a demo offer. */
const OFFER_DISCOUNT = 0.1;

/**
 * The demo's price movements ("the demo changes a price now and then"). Each tick takes
 * the next product in turn and, in every locale, flips it between its list price (in stock) and a
 * 10 % offer (only a few left), so a visitor who waits sees a live change. Returns a stop function.
 */
export function startDemoChanges(catalog: Catalog, everyMs: number): () => void {
  // List prices as seeded: the offer is always taken off these, so prices never drift.
  const listPrices = new Map<string, number>();
  for (const id of catalog.ids()) {
    for (const locale of catalog.locales(id)) {
      const product = catalog.get(id, locale);
      if (product) listPrices.set(`${locale}|${id}`, product.price.amount);
    }
  }
  let turn = 0;
  const timer = setInterval(() => {
    const ids = catalog.ids();
    const id = ids[turn++ % ids.length];
    if (id === undefined) return;
    for (const locale of catalog.locales(id)) {
      const listPrice = listPrices.get(`${locale}|${id}`);
      const current = catalog.get(id, locale);
      if (listPrice === undefined || !current) continue;
      const onOffer = current.price.amount !== listPrice;
      catalog.update({
        id,
        locale,
        amount: onOffer ? listPrice : Math.round(listPrice * (1 - OFFER_DISCOUNT)),
        availability: onOffer ? 'in_stock' : 'low_stock',
      });
    }
  }, everyMs);
  // A demo nicety must never keep the process alive on its own.
  timer.unref();
  return () => clearInterval(timer);
}
