import type { Test } from 'tap';

// What `import t from 'tap'` gives a test file run by test/together.ts: the file's own subtest.
const file = new URL(import.meta.url).searchParams.get('file');
const current = (globalThis as Record<symbol, Map<string, Test> | undefined>)[Symbol.for('vitrine.together')];
const test = file ? current?.get(file) : undefined;
if (!test) throw new Error(`test/together-tap.ts: no subtest for ${file}`);
export default test;
