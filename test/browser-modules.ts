import { register } from 'node:module';
import { browserAliases, islandRuntime } from '../islands/hydration-library.ts';

/**
 * Island code as the browser build runs it, for unit tests in happy-dom. Under ISLAND_RUNTIME=preact
 * the module and everything it imports from the project see React's browser API as preact/compat
 * (the same aliases as vite.config.ts), while the test's server-side render keeps React 19; under
 * the default this is a plain import of the same module the server renders.
 */
export const RUNTIME = islandRuntime(process.env.ISLAND_RUNTIME);
const MARKER = 'island-browser';

if (RUNTIME !== 'react') {
  register('./browser-module-hooks.js', import.meta.url, {
    data: { aliases: browserAliases(RUNTIME), marker: MARKER },
  });
}

/** The URL to import a file by as the browser does (`new URL('./x.tsx', import.meta.url)`). */
export function browserUrl(file: URL): string {
  if (RUNTIME === 'react') return file.href;
  const url = new URL(file);
  url.searchParams.set(MARKER, '');
  return url.href;
}

/** Imports a file as the browser does. */
export function browserImport<T>(file: URL): Promise<T> {
  return import(browserUrl(file)) as Promise<T>;
}

/**
 * Which library owns a hydrated root: React DOM marks the container with `__reactContainer$<random>`,
 * Preact keeps the root's virtual tree on it under its mangled `__k` (`_children`).
 */
export function hydratedBy(container: object): 'react' | 'preact' | null {
  if (Object.keys(container).some((key) => key.startsWith('__reactContainer$'))) return 'react';
  if ('__k' in container) return 'preact';
  return null;
}
