// Node module hooks for island unit tests under ISLAND_RUNTIME=preact (registered by
// test/browser-modules.ts). A module whose URL carries the marker is "as the browser build sees it":
// React's browser API resolves to preact/compat, and the project files it imports carry the marker
// too. Unmarked modules (the server-side render in the same test) keep React. Plain JavaScript:
// hooks run on a loader thread of their own.

/** @type {Record<string, string>} */
let aliases = {};
let marker = '';

/** @param {{ aliases: Record<string, string>, marker: string }} data */
export function initialize(data) {
  aliases = data.aliases;
  marker = data.marker;
}

/** @param {string | undefined} url */
function isMarked(url) {
  return url?.startsWith('file:') === true && new URL(url).searchParams.has(marker);
}

/**
 * @param {string} specifier
 * @param {{ parentURL?: string }} context
 * @param {(specifier: string, context: object) => Promise<{ url: string }>} next
 */
export async function resolve(specifier, context, next) {
  if (!isMarked(context.parentURL)) return next(specifier, context);
  const alias = aliases[specifier];
  if (alias) return next(alias, context);
  const resolved = await next(specifier, context);
  if (!resolved.url.startsWith('file:') || resolved.url.includes('/node_modules/')) return resolved;
  const url = new URL(resolved.url);
  url.searchParams.set(marker, '');
  return { ...resolved, url: url.href };
}
