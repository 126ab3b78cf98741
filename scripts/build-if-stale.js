// Builds when the build output is missing or older than the sources (or made for the other island
// runtime): `npm start` before it serves, and every suite that runs the build (browser, hostile,
// Docker stage, bench) before it starts, so one CI run builds once. Plain JavaScript so it runs
// before anything is compiled.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleBuildReason } from './stale-build.js';

// Everything `npm run build` reads: its four Vite builds, the compression step, the dependencies.
const SOURCES = [
  'server',
  'client',
  'islands',
  'common',
  'sdk',
  'workbench',
  'vite.config.ts',
  'vite.server.config.ts',
  'vite.sdk.config.ts',
  'vite.workbench.config.ts',
  'scripts/compress-assets.js',
  'package.json',
  'package-lock.json',
];
// One output of each Vite build; the workbench's is written last, so a build that stopped half
// way leaves it older than the sources (or missing: each build empties its folder first).
const OUTPUTS = ['dist/client/.vite/manifest.json', 'dist/server/main.js', 'dist/workbench/workbench.js'];

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** The island runtime the browser build was made for (vite.config.ts records it), or null. */
function builtRuntime() {
  try {
    return JSON.parse(readFileSync('dist/client/.vite/island-runtime.json', 'utf8')).runtime;
  } catch {
    return null;
  }
}

/** Runs `npm run build` when the build is stale; exits with the build's status when it fails. */
export function buildIfStale() {
  const builtAt = Math.min(...OUTPUTS.map((p) => (existsSync(p) ? statSync(p).mtimeMs : 0)));
  const stale = staleBuildReason({
    builtAt,
    newestSource: Math.max(...SOURCES.map(newest)),
    builtRuntime: builtRuntime(),
    requestedRuntime: process.env.ISLAND_RUNTIME || 'react',
  });
  if (!stale) return;
  console.log(`Building (${stale})…`);
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildIfStale();
