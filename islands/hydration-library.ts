/**
 * Which library hydrates the islands in the browser, chosen at build time by `ISLAND_RUNTIME`
 * (docs/decisions/0013-island-hydration-runtime.md). The server always renders with React 19; only
 * the browser build and the island unit tests differ.
 */
export const ISLAND_RUNTIMES = ['react', 'preact'] as const;
export type IslandRuntime = (typeof ISLAND_RUNTIMES)[number];

/** The value of ISLAND_RUNTIME read: React DOM unless it asks for Preact; anything else is a mistake worth stopping the build for. */
export function islandRuntime(value: string | undefined): IslandRuntime {
  if (value === undefined || value === '') return 'react';
  if ((ISLAND_RUNTIMES as readonly string[]).includes(value)) return value as IslandRuntime;
  throw new Error(
    `ISLAND_RUNTIME must be one of ${ISLAND_RUNTIMES.join(', ')} (or unset for react), not ${JSON.stringify(value)}`,
  );
}

/**
 * Under `preact`, every import of React's browser API resolves to `preact/compat`, so islands keep
 * React's API while the page loads Preact. Exact specifiers only: `react-dom/server` stays React's.
 * Vite's build and the island unit tests' module hooks both read this one table.
 */
export const PREACT_ALIASES: Readonly<Record<string, string>> = {
  react: 'preact/compat',
  'react-dom': 'preact/compat',
  'react-dom/client': 'preact/compat/client',
  'react/jsx-runtime': 'preact/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/jsx-dev-runtime',
};

/** The aliases the browser build applies for a runtime (none for React). */
export function browserAliases(runtime: IslandRuntime): Readonly<Record<string, string>> {
  return runtime === 'preact' ? PREACT_ALIASES : {};
}

/** Where the browser build records its runtime, so `npm start` can tell a build of the other one. */
export const RUNTIME_RECORD = '.vite/island-runtime.json';
