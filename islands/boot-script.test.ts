import { execFileSync } from 'node:child_process';
import t from 'tap';

/**
 * The boot script's text runs in a page, not in the module it came from, so whatever compiled the
 * server must leave a script that needs nothing but the page. Run as `npm run dev` runs the server
 * (tsx, whose keepNames wraps functions in a helper of the module), in a context with only what a
 * page has; vm modules let the test see the runtime's import.
 */
const SCENARIO = `
import { Script } from 'node:vm';
import { BOOT_SCRIPT } from './islands/boot-script.ts';
const listeners = new Map();
const imported = [];
const page = {
  document: {
    currentScript: { dataset: { src: '/assets/runtime-abc.js' } },
    readyState: 'loading',
    addEventListener: (type, listener) => listeners.set(type, listener),
    removeEventListener: (type) => listeners.delete(type),
  },
  window: { addEventListener() {} },
  setTimeout: () => 0,
};
const script = new Script(BOOT_SCRIPT, {
  importModuleDynamically: async (specifier) => {
    imported.push(specifier);
    return import('node:os');
  },
});
const seen = {};
try {
  script.runInNewContext(page);
  seen.evaluated = true;
} catch (error) {
  seen.evaluated = String(error);
}
seen.beforeInput = [...imported];
seen.waitsForInput = listeners.has('keydown');
listeners.get('keydown')?.();
await new Promise((resolve) => setImmediate(resolve));
seen.afterInput = imported;
seen.stillListening = listeners.has('keydown');
console.log(JSON.stringify(seen));
`;

t.test('under npm run dev the boot script runs in a bare page and imports the runtime on input', async (t) => {
  const out = execFileSync(
    process.execPath,
    ['--experimental-vm-modules', '--no-warnings', '--import', 'tsx', '--input-type=module', '-e', SCENARIO],
    { encoding: 'utf8' },
  );
  const seen = JSON.parse(out.trim().split('\n').at(-1) ?? '{}');
  t.equal(seen.evaluated, true, 'evaluates in a bare page');
  t.same(seen.beforeInput, [], 'nothing is fetched while the page loads');
  t.equal(seen.waitsForInput, true, "waits for the visitor's first input");
  t.same(seen.afterInput, ['/assets/runtime-abc.js'], 'the first input imports the runtime named by data-src');
  t.equal(seen.stillListening, false, 'and stops listening');
});
