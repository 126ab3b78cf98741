import { readFileSync } from 'node:fs';
import t from 'tap';

/**
 * The built server (`npm start`, the Docker image, the bench) renders with React's production build
 * whatever NODE_ENV says: `npm start` defaults NODE_ENV to development for operator conveniences,
 * and React resolved at run time then loads its development build, ten times slower per page
 * (docs/decisions/0172-the-server-bundle-carries-reacts-production-build.md).
 */
const bundle = readFileSync(new URL('../../dist/server/main.js', import.meta.url), 'utf8');

t.test('React is in the server bundle, not resolved at run time by NODE_ENV', async (t) => {
  t.notMatch(bundle, /from ["']react(-dom)?(\/[^"']*)?["']/, 'no import of react or react-dom left');
  t.match(bundle, 'renderToPipeableStream', 'the streaming renderer is bundled');
});

t.test('the bundled React is its production build', async (t) => {
  // A warning only React's development build of the renderer carries.
  const development = readFileSync(
    new URL('../../node_modules/react-dom/cjs/react-dom-server.bun.development.js', import.meta.url),
    'utf8',
  );
  const marker = 'Each child in a list should have a unique';
  t.ok(development.includes(marker), 'the marker tells the builds apart');
  t.notOk(bundle.includes(marker), 'the development build is not in the bundle');
});

t.test('the bundled streaming renderer measures chunks by length (decision 0216)', async (t) => {
  t.match(bundle, /function byteLengthOfChunk\(chunk\) \{\s*return chunk\.length;\s*\}/);
});
