import { stripIgnoredCharacters } from 'graphql';
import { LIVE_PRICE_QUERY } from '../../islands/price/queries.ts';

/**
 * Queries answered over GET: those the site's own islands send, compared as normalised text
 * (whitespace and commas stripped). A GET can be made by any page a visitor opens (an image, a
 * link), so it must not be a way to run arbitrary, costly queries in their name; POST, which a
 * foreign page cannot send with a JSON body without CORS, keeps full (cost-limited) GraphQL.
 */
export const GET_QUERIES: readonly string[] = [LIVE_PRICE_QUERY];

/** True when `query` is, up to ignored characters, one of `allowed`. */
export function createGetAllowList(allowed: readonly string[]): (query: unknown) => boolean {
  const normalised = new Set(allowed.map(stripIgnoredCharacters));
  return (query) => {
    if (typeof query !== 'string') return false;
    try {
      return normalised.has(stripIgnoredCharacters(query));
    } catch {
      // Not even GraphQL's lexical grammar: certainly none of ours.
      return false;
    }
  };
}
