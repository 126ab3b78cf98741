import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';

/**
 * No module imports itself back through others: `npm run lint` (Biome's noImportCycles, set to
 * error in biome.json) refuses a cycle. This keeps the rule itself honest: the project's config,
 * run over a two-module cycle, must fail, and a chain without the cycle must pass.
 */

const run = promisify(execFile);
const biome = join(process.cwd(), 'node_modules/.bin/biome');
const config = JSON.parse(await readFile('biome.json', 'utf8')) as Record<string, unknown>;
const dir = await mkdtemp(join(tmpdir(), 'vitrine-cycles-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));
// The project's rules over the fixture folder only.
const { $schema: _schema, files: _files, ...rules } = config;
await writeFile(join(dir, 'biome.json'), JSON.stringify(rules));

async function lint(files: Record<string, string>) {
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return run(biome, ['lint', '--only=suspicious/noImportCycles', '.'], { cwd: dir }).then(
    () => ({ ok: true, output: '' }),
    (error: { stdout: string; stderr: string }) => ({ ok: false, output: error.stdout + error.stderr }),
  );
}

t.test('a cycle between two modules fails the lint', async (t) => {
  const result = await lint({
    'a.ts': "import { b } from './b.ts';\nexport const a = () => b();\n",
    'b.ts': "import { a } from './a.ts';\nexport const b = () => a();\n",
  });
  t.equal(result.ok, false);
  t.match(result.output, /noImportCycles/);
});

t.test('the same modules without the cycle pass', async (t) => {
  const result = await lint({
    'a.ts': "import { b } from './b.ts';\nexport const a = () => b();\n",
    'b.ts': 'export const b = () => 1;\n',
  });
  t.equal(result.ok, true, result.output);
});
