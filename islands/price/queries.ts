/**
 * The live price's GraphQL documents: plain strings, so the server can read them too. The server
 * answers GET requests for exactly these queries and no others (server/data/get-queries.ts).
 */
const FIELDS = 'fragment LivePriceFields on Product { id price { amount formatted } availability version }';
export const LIVE_PRICE_QUERY = `query LivePrice($id: ID!, $locale: String!) { product(id: $id, locale: $locale) { ...LivePriceFields } } ${FIELDS}`;
export const LIVE_PRICE_UPDATES = `subscription LivePriceUpdates($ids: [ID!]!, $locale: String!) { productUpdated(ids: $ids, locale: $locale) { ...LivePriceFields } } ${FIELDS}`;
