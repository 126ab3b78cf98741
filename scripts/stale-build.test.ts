import t from 'tap';
import { staleBuildReason } from './stale-build.js';

/** When `npm start` builds before serving: missing, stale, or made for the other island runtime. */
const cases: [string, Parameters<typeof staleBuildReason>[0], string | null][] = [
  [
    'a fresh build of the requested runtime is served as is',
    { builtAt: 200, newestSource: 100, builtRuntime: 'react', requestedRuntime: 'react' },
    null,
  ],
  [
    'no build yet',
    { builtAt: 0, newestSource: 100, builtRuntime: null, requestedRuntime: 'react' },
    'the build output is missing',
  ],
  [
    'a source changed after the build',
    { builtAt: 200, newestSource: 300, builtRuntime: 'react', requestedRuntime: 'react' },
    'the build output is older than the sources',
  ],
  [
    'a Preact build when React is asked for',
    { builtAt: 200, newestSource: 100, builtRuntime: 'preact', requestedRuntime: 'react' },
    'the islands were built for preact, ISLAND_RUNTIME asks for react',
  ],
  [
    'a React build when Preact is asked for',
    { builtAt: 200, newestSource: 100, builtRuntime: 'react', requestedRuntime: 'preact' },
    'the islands were built for react, ISLAND_RUNTIME asks for preact',
  ],
  [
    'a build from before the runtime was recorded',
    { builtAt: 200, newestSource: 100, builtRuntime: null, requestedRuntime: 'react' },
    'the islands were built for an unknown runtime, ISLAND_RUNTIME asks for react',
  ],
];

for (const [name, build, reason] of cases) {
  t.test(name, async (t) => {
    t.equal(staleBuildReason(build), reason);
  });
}
