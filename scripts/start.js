// `npm start`: build when the build output is missing or older than the sources, then serve it
// (contract section 2). Plain JavaScript so it runs before anything is compiled.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

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

const builtAt = Math.min(...OUTPUTS.map((p) => (existsSync(p) ? statSync(p).mtimeMs : 0)));
if (builtAt === 0 || Math.max(...SOURCES.map(newest)) > builtAt) {
  console.log('Building (the build output is missing or older than the sources)…');
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
process.env.NODE_ENV ??= 'development';
await import('../dist/server/main.js');
