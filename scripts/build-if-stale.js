// Builds when the build output is missing or older than the sources (or made for the other island
// runtime): `npm start` before it serves, `npm run test:hostile` before it attacks the build.
// Plain JavaScript so it runs before anything is compiled.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleBuildReason } from './stale-build.js';

const SOURCES = [
  'server',
  'client',
  'islands',
  'common',
  'sdk',
  'vite.config.ts',
  'vite.server.config.ts',
  'package.json',
];
const OUTPUTS = ['dist/server/main.js', 'dist/client/.vite/manifest.json'];

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
