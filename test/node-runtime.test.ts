import { execFileSync } from 'node:child_process';
import t from 'tap';

/**
 * Node.js 24 is the project's runtime even where the machine's own Node is older: the README's
 * commands run through npm, which puts node_modules/.bin (and the registry's Node 24 binary there)
 * first on PATH. This test runs inside tap's worker, so it sees the Node the test command really uses.
 */

const major = (version: string) => Number(version.replace(/^v/, '').split('.')[0]);

t.test('the tests run on Node.js 24 or later', async (t) => {
  t.ok(major(process.version) >= 24, `process.version is ${process.version}`);
});

t.test('`node` on the PATH npm scripts see is Node.js 24 or later', async (t) => {
  // What `node scripts/start.js`, vite and tsx shebangs (`#!/usr/bin/env node`) resolve to.
  const version = execFileSync('node', ['--version'], { encoding: 'utf8' }).trim();
  t.ok(major(version) >= 24, `node --version is ${version}`);
});
