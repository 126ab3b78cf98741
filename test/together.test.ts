import { execFile } from 'node:child_process';
import { globSync, readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import t from 'tap';
import { filesOf, GROUPS } from './together.ts';

const run = promisify(execFile);
const OTHER_SUITES = /^(test\/(e2e|system|hostile)|node_modules|dist|scratch)\//;

t.test('every unit test file runs exactly once: alone from tap’s list or in one group', async (t) => {
  const folders = readdirSync('.', { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('.') && !['node_modules', 'dist', 'scratch'].includes(d.name))
    .map((d) => d.name);
  const files = folders.flatMap((f) => globSync(`${f}/**/*.test.ts`)).filter((f) => !OTHER_SUITES.test(f));
  // tap's own list, as `npm run test:unit` runs it (without the TAP_ variables of this run).
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TAP')));
  const { stdout } = await run(process.execPath, ['node_modules/tap/dist/esm/run.mjs', 'list'], { env });
  const alone = new Set(stdout.split('\n').filter(Boolean));
  const grouped = Object.values(GROUPS).flatMap((globs) => filesOf(globs));
  const runs = new Map(files.map((f) => [f, (alone.has(f) ? 1 : 0) + grouped.filter((g) => g === f).length]));
  t.same(
    [...runs].filter(([, n]) => n !== 1),
    [],
    'no file runs twice or never',
  );
  t.ok(runs.size > 150, `${runs.size} unit test files`);
  for (const group of Object.keys(GROUPS)) t.ok(alone.has(`test/together/${group}.test.ts`), `${group} runs`);
  t.same(
    [...alone].filter((f) => f.startsWith('test/together/') && !(f.slice(14, -8) in GROUPS)),
    [],
    'every entry in test/together/ names a group',
  );
});
