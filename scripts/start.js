// `npm start`: build when the build output is missing or older than the sources, then serve it
// Plain JavaScript so it runs before anything is compiled.
import { buildIfStale } from './build-if-stale.js';

// Node.js 24 is the runtime. `npm start` finds it first on PATH: `npm install`
// puts the registry's Node 24 binary in node_modules/.bin on Linux x64 and arm64.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  console.error(
    `Node.js 24 or later is needed; this is ${process.version}. Run \`npm install\` (it fetches Node 24 on Linux x64/arm64) or install Node 24.`,
  );
  process.exit(1);
}

buildIfStale();
process.env.NODE_ENV ??= 'development';
await import('../dist/server/main.js');
