import { globSync, readdirSync } from 'node:fs';
import t from 'tap';
import pkg from '../package.json' with { type: 'json' };
import { E2E_GROUPS, ISLAND_GROUP } from './e2e/together.ts';
import { filesOf } from './together.ts';

t.test('every browser test file runs exactly once in `npm run test:e2e`, in one group', async (t) => {
  t.match(pkg.scripts['test:e2e'], "'test/e2e/together/*.test.ts'", 'test:e2e runs the group entries');
  const files = globSync('test/e2e/*.test.ts').sort();
  const grouped = Object.values(E2E_GROUPS).flatMap((globs) => filesOf(globs));
  t.same(
    files.filter((f) => grouped.filter((g) => g === f).length !== 1),
    [],
    'no file runs twice or never',
  );
  t.same(
    grouped.filter((f) => !files.includes(f)),
    [],
    'a group names only browser test files',
  );
  t.ok(files.length > 30, `${files.length} browser test files`);
  t.same(
    readdirSync('test/e2e/together').sort(),
    Object.keys(E2E_GROUPS)
      .map((name) => `${name}.test.ts`)
      .sort(),
    'one entry per group, and no entry without a group',
  );
});

t.test('the island browser files run again with the preact/compat build', async (t) => {
  t.match(pkg.scripts['test:e2e:islands'], 'test/e2e/islands/islands.test.ts');
  const globs = ISLAND_GROUP.islands ?? [];
  const islands = filesOf(globs);
  // Every name in the braces is a file: a misspelt one would leave its tests out without a word.
  const named = globs.flatMap((glob) => /\{([^}]*)\}/.exec(glob)?.[1]?.split(',') ?? [glob]);
  t.equal(islands.length, named.length, `each of the ${named.length} names is a file`);
  t.same(
    islands.filter((f) => !globSync('test/e2e/*.test.ts').includes(f)),
    [],
    'all of them browser test files',
  );
});
