import { globSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { basename, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import t, { type Test } from 'tap';

/**
 * Test support: runs several test files in one process, each as a subtest named by its path, so
 * tap, Fastify, React and ajv load once for the lot instead of once per file
 * (docs/decisions/0194-test-files-together.md). Each file's `import t from 'tap'` is resolved to
 * its own subtest, so its tests, `before` hooks and teardowns stay inside that subtest and a
 * failure names the file. Every file still runs alone with `npx tap path/to/file.test.ts`.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SHIM = new URL('./together-tap.ts', import.meta.url).href;
const current = new Map<string, Test>();
(globalThis as Record<symbol, unknown>)[Symbol.for('vitrine.together')] = current;

registerHooks({
  resolve(specifier, context, next) {
    if (specifier === 'tap' && context.parentURL && current.has(context.parentURL)) {
      return { url: `${SHIM}?file=${encodeURIComponent(context.parentURL)}`, shortCircuit: true };
    }
    return next(specifier, context);
  },
});

/**
 * The groups, each run by test/together/NAME.test.ts, as globs from the repository root. `.taprc`
 * excludes the same files from tap's own list (test/together.test.ts checks each runs once). Not
 * grouped: islands/, whose tests define browser globals on `globalThis` as they go.
 */
export const GROUPS: Record<string, readonly string[]> = {
  'bench-scripts': ['bench/*.test.ts', 'scripts/*.test.ts'],
  'client-common': ['client/**/*.test.ts', 'common/*.test.ts'],
  'sdk-builder': ['sdk/builder/*.test.ts'],
  sdk: ['sdk/*.test.ts', 'sdk/!(builder)/*.test.ts'],
  'server-content': ['server/content/*.test.ts'],
  'server-data': ['server/data/*.test.ts'],
  'server-render-routes': ['server/render/*.test.ts', 'server/routes/*.test.ts'],
  'server-routing': ['server/routing/*.test.ts'],
  server: ['server/!(content|data|render|routes|routing)/*.test.ts'],
  'test-a-h': ['test/[a-h]*.test.ts'],
  'test-i-r': ['test/[i-r]*.test.ts'],
  'test-s-z': ['test/[s-z]*.test.ts'],
  workbench: ['workbench/*.test.ts'],
};

/** The test files the globs (relative to the repository) match, in a stable order. */
export function filesOf(globs: readonly string[]): string[] {
  return [...new Set(globs.flatMap((glob) => globSync(glob, { cwd: ROOT })))].sort();
}

/**
 * Runs the files of the group an entry in test/together/ (or test/e2e/together/, with its groups) is
 * named for, one after another in this process, each in a subtest with tap's per-file timeout.
 */
export async function together(
  entry: string,
  groups: Record<string, readonly string[]> = GROUPS,
  { restoreEnv = false } = {},
): Promise<void> {
  const name = basename(fileURLToPath(entry), '.test.ts');
  const globs = groups[name];
  if (!globs) throw new Error(`${relative('.', fileURLToPath(entry))}: no group ${name}`);
  const files = filesOf(globs);
  const timeout = Number(process.env.TAP_TIMEOUT ?? 30) * 1000;
  t.setTimeout(timeout * files.length);
  for (const file of files) {
    const url = pathToFileURL(`${ROOT}${file}`).href;
    const env = { ...process.env };
    await t.test(relative('.', fileURLToPath(url)), { timeout }, async (ft) => {
      current.set(url, ft);
      await import(url);
    });
    // What a browser file put in the environment (for a server it spawns) is not the next file's.
    if (restoreEnv) {
      for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
      Object.assign(process.env, env);
    }
  }
}
