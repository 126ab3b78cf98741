// Why `npm start` must build before serving, or null when the build output can be served as is.
// Plain JavaScript: it runs before anything is compiled.

/**
 * @param {{ builtAt: number, newestSource: number, builtRuntime: string | null, requestedRuntime: string }} build
 *   `builtAt` is the oldest build output's mtime (0 when one is missing); `builtRuntime` the island
 *   runtime the browser build recorded (null when it recorded none).
 * @returns {string | null}
 */
export function staleBuildReason({ builtAt, newestSource, builtRuntime, requestedRuntime }) {
  if (builtAt === 0) return 'the build output is missing';
  if (newestSource > builtAt) return 'the build output is older than the sources';
  if (builtRuntime !== requestedRuntime)
    return `the islands were built for ${builtRuntime ?? 'an unknown runtime'}, ISLAND_RUNTIME asks for ${requestedRuntime}`;
  return null;
}
