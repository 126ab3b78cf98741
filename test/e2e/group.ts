import type { Browser } from 'playwright-core';
import type { RunningServer } from './server.ts';

/**
 * What the browser files of one group (test/e2e/together.ts) share: one Chromium, one built server
 * for the files that ask for the usual one, one for the editor files (test/e2e/editor.ts) and the
 * editor's own server. Absent when a file runs alone. Kept on `globalThis` so `startServer` and `launchBrowser` find it without importing
 * the runner (docs/decisions/0207-browser-files-share-chromium-and-server.md).
 */
export interface Group {
  /** `process.env` as the group started: a file that changed it gets a server of its own. */
  env: Readonly<Record<string, string | undefined>>;
  browser?: Promise<Browser>;
  /** The shared servers, by the environment they were started with. */
  servers: Map<string, Promise<RunningServer>>;
  /** What else a helper shares among the group's files (the editor's server), stopped at its end. */
  closers: (() => unknown)[];
}

const KEY = Symbol.for('vitrine.e2e.group');

export function currentGroup(): Group | undefined {
  return (globalThis as Record<symbol, Group | undefined>)[KEY];
}

/** Starts sharing for the files run after it; `end` stops what was shared. */
export function openGroup(): { end(): Promise<void> } {
  const group: Group = { env: { ...process.env }, servers: new Map(), closers: [] };
  (globalThis as Record<symbol, Group | undefined>)[KEY] = group;
  return {
    async end() {
      (globalThis as Record<symbol, Group | undefined>)[KEY] = undefined;
      const [browser] = await Promise.allSettled([group.browser]);
      if (browser?.status === 'fulfilled') await browser.value?.close();
      for (const server of await Promise.allSettled(group.servers.values()))
        if (server.status === 'fulfilled') await server.value.stop();
      for (const close of group.closers) await close();
    },
  };
}

/** True when `process.env` is what it was when the group started. */
export function envUnchanged(group: Group): boolean {
  const keys = new Set([...Object.keys(group.env), ...Object.keys(process.env)]);
  return [...keys].every((key) => group.env[key] === process.env[key]);
}
