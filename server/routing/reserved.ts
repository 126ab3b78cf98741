/**
 * Paths the server answers with its own routes (assets, preview, APIs, health, builds): the page
 * router never decides them: paths starting with _nuxt, live, api or healthcheck skip the
 * canonicalisation. Matched segment by segment, so `/lively` is not `/live`.
 */
const RESERVED = [
  '/assets',
  '/live',
  '/api',
  '/healthcheck',
  '/cs/api',
  '/graphql',
  '/builds',
  '/_applicationConfiguration',
];

export function isReservedPath(path: string): boolean {
  return RESERVED.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
