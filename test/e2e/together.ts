import t from 'tap';
import { together } from '../together.ts';
import { openGroup } from './group.ts';

/**
 * The browser files, run several to a process the way test/together.ts runs the unit files: one
 * tap process, one Chromium and (for the files that ask for the usual one) one built server per
 * group instead of one each (docs/decisions/0207-browser-files-share-chromium-and-server.md). Each
 * file still gets fresh browser contexts; a file that starts its server with an environment of its
 * own (another content folder, an editor origin, workers) still gets its own server. Every file
 * still runs alone with `npx tap test/e2e/x.test.ts`; test/e2e-groups.test.ts checks each runs
 * once in `npm run test:e2e`.
 */
export const E2E_GROUPS: Record<string, readonly string[]> = {
  // The usual server, looked at from outside.
  pages: [
    'test/e2e/{a11y,footnotes,header-menu,hydration,language,lighthouse,pages,parallax,paused-stream}.test.ts',
    'test/e2e/{price,requests,runtime,sanitize,server-bundle,speculation,touch-targets}.test.ts',
  ],
  // The editor's origin and a server trusting it (test/e2e/editor.ts), shared unless a file set more.
  editor: [
    'test/e2e/builder*.test.ts',
    'test/e2e/{collab,contentstack-preview,preview,share-links-4x,toolbar-tab-4x,variants-4x,workbench}.test.ts',
  ],
  // Servers of their own: other content, an image cache, workers, three behind HAProxy.
  'own-server': ['test/e2e/{broken-component,images,layouts,load-balancer,workers}.test.ts'],
};

/**
 * The island browser files, run once more by `npm run test:e2e:islands` (the preact/compat build):
 * test/e2e/islands/islands.test.ts, outside `npm run test:e2e`'s folder.
 */
export const ISLAND_GROUP: Record<string, readonly string[]> = {
  islands: ['test/e2e/{header-menu,hydration,language,lighthouse,pages,parallax,price,runtime}.test.ts'],
};

/** Runs the group an entry is named for, sharing Chromium and the usual server among its files. */
export async function togetherInBrowser(entry: string, groups = E2E_GROUPS): Promise<void> {
  const group = openGroup();
  t.teardown(() => group.end());
  await together(entry, groups, { restoreEnv: true });
}
