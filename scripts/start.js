// `npm start`: build when the build output is missing or older than the sources, then serve it
// Plain JavaScript so it runs before anything is compiled.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { staleBuildReason } from './stale-build.js';

// Node.js 24 is the runtime. `npm start` finds it first on PATH: `npm install`
// puts the registry's Node 24 binary in node_modules/.bin on Linux x64 and arm64.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  console.error(
    `Node.js 24 or later is needed; this is ${process.version}. Run \`npm install\` (it fetches Node 24 on Linux x64/arm64) or install Node 24.`,
  );
  process.exit(1);
}

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

const builtAt = Math.min(...OUTPUTS.map((p) => (existsSync(p) ? statSync(p).mtimeMs : 0)));
const stale = staleBuildReason({
  builtAt,
  newestSource: Math.max(...SOURCES.map(newest)),
  builtRuntime: builtRuntime(),
  requestedRuntime: process.env.ISLAND_RUNTIME || 'react',
});
if (stale) {
  console.log(`Building (${stale})…`);
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
process.env.NODE_ENV ??= 'development';
await import('../dist/server/main.js');
