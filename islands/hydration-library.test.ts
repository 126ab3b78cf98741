import t from 'tap';
import { browserAliases, islandRuntime, PREACT_ALIASES } from './hydration-library.ts';

/** ISLAND_RUNTIME: React DOM unless Preact is asked for by name; a typo stops the build. */
const cases: [string | undefined, string][] = [
  [undefined, 'react'],
  ['', 'react'],
  ['react', 'react'],
  ['preact', 'preact'],
];
for (const [value, runtime] of cases) {
  t.test(`ISLAND_RUNTIME=${JSON.stringify(value)} hydrates with ${runtime}`, async (t) => {
    t.equal(islandRuntime(value), runtime);
  });
}

for (const value of ['Preact', 'react-dom', 'vue']) {
  t.test(`ISLAND_RUNTIME=${value} is refused with the allowed values`, async (t) => {
    t.throws(() => islandRuntime(value), {
      message: `ISLAND_RUNTIME must be one of react, preact (or unset for react), not "${value}"`,
    });
  });
}

t.test('only the Preact build swaps React for preact/compat, and never the server renderer', async (t) => {
  t.same(browserAliases('react'), {});
  t.equal(browserAliases('preact'), PREACT_ALIASES);
  t.equal(PREACT_ALIASES['react-dom/client'], 'preact/compat/client');
  t.equal(PREACT_ALIASES.react, 'preact/compat');
  t.notOk('react-dom/server' in PREACT_ALIASES);
});
