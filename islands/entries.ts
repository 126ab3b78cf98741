/**
 * The island registry: each hydrated island's name and source entry, plus the runtime that loads
 * them. Vite builds one chunk per entry, the server's asset map finds their built files by these
 * sources, and the tests' fake manifest is made from the same list.
 */
export const ISLAND_ENTRIES = {
  runtime: 'islands/main.ts',
  header: 'islands/header/Header.tsx',
  parallax: 'islands/parallax/Parallax.tsx',
  price: 'islands/price/Price.tsx',
} as const satisfies Record<string, string>;

export type IslandEntryName = keyof typeof ISLAND_ENTRIES;
