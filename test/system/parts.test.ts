import t from 'tap';
import { inCi, missing, needs, type Part } from './parts.ts';

/** A missing system part is a skip naming its install line on a laptop, and a failure in CI. */

const absent: Part = { name: 'redis-server', present: () => false, install: 'apt-get install redis-server' };
const present: Part = { name: 'npm', present: () => true, install: 'install Node.js 24 with npm' };

function recorder() {
  const said: string[] = [];
  return {
    said,
    fail: (m: string) => said.push(`fail: ${m}`),
    skip: (m: string, _cb: () => void) => said.push(`skip: ${m}`),
  };
}

t.test('outside CI a missing part is a skip with the line that installs it', async (t) => {
  const r = recorder();
  t.equal(needs(r, [present, absent], {}), false);
  t.same(r.said, ['skip: redis-server is not installed: apt-get install redis-server']);
});

t.test('in CI a missing part fails', async (t) => {
  const r = recorder();
  t.equal(needs(r, [absent], { CI: 'true' }), false);
  t.same(r.said, ['fail: redis-server is not installed: apt-get install redis-server (CI needs it)']);
  const other = recorder();
  missing(other, "npm's cache lacks a package", { CI: '1' });
  t.match(other.said, [/^fail: npm's cache lacks a package/]);
});

t.test('present parts report nothing', async (t) => {
  const r = recorder();
  t.equal(needs(r, [present], { CI: 'true' }), true);
  t.same(r.said, []);
});

t.test('CI counts as set unless empty, false or 0', async (t) => {
  t.same(
    ['true', '1', 'yes', '', 'false', '0', undefined].map((CI) => inCi(CI === undefined ? {} : { CI })),
    [true, true, true, false, false, false, false],
  );
});
