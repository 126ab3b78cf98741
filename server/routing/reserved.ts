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

/** Each prefix as a folder, spelled once rather than on every request. */
const RESERVED_FOLDERS = RESERVED.map((prefix) => `${prefix}/`);

export function isReservedPath(path: string): boolean {
  for (let i = 0; i < RESERVED.length; i++)
    if (path === RESERVED[i] || path.startsWith(RESERVED_FOLDERS[i] as string)) return true;
  return false;
}
