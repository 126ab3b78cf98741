import type { Browser } from 'playwright-core';
import type { RunningServer } from './server.ts';

/**
 * What the browser files of one group (test/e2e/together.ts) share: one Chromium, and one built
 * server for the files that ask for the usual one (no environment of their own). Absent when a file
 * runs alone. Kept on `globalThis` so `startServer` and `launchBrowser` find it without importing
 * the runner (docs/decisions/0207-browser-files-share-chromium-and-server.md).
 */
export interface Group {
  /** `process.env` as the group started: a file that changed it gets a server of its own. */
  env: Readonly<Record<string, string | undefined>>;
  server?: Promise<RunningServer>;
  browser?: Promise<Browser>;
}

const KEY = Symbol.for('vitrine.e2e.group');

export function currentGroup(): Group | undefined {
  return (globalThis as Record<symbol, Group | undefined>)[KEY];
}

/** Starts sharing for the files run after it; `end` stops what was shared. */
export function openGroup(): { end(): Promise<void> } {
  const group: Group = { env: { ...process.env } };
  (globalThis as Record<symbol, Group | undefined>)[KEY] = group;
  return {
    async end() {
      (globalThis as Record<symbol, Group | undefined>)[KEY] = undefined;
      const [browser, server] = await Promise.allSettled([group.browser, group.server]);
      if (browser.status === 'fulfilled') await browser.value?.close();
      if (server.status === 'fulfilled') await server.value?.stop();
    },
  };
}

/** True when `process.env` is what it was when the group started. */
export function envUnchanged(group: Group): boolean {
  const keys = new Set([...Object.keys(group.env), ...Object.keys(process.env)]);
  return [...keys].every((key) => group.env[key] === process.env[key]);
}
