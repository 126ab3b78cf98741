import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The system parts `npm run test:system` starts for real, each with the line that installs it. A
 * test that needs a missing part is skipped with that line outside CI, so a laptop without Redis
 * gets a counted, explained skip; under CI (`CI` set and not `false`/`0`) it fails, so CI never
 * passes by skipping (docs/decisions/0130-npm-test-needs-no-system-parts.md).
 */

export interface Part {
  name: string;
  present: () => boolean;
  install: string;
}

export const REDIS: Part = {
  name: 'redis-server',
  present: () => existsSync('/usr/bin/redis-server'),
  install: 'apt-get install redis-server',
};

export const HAPROXY: Part = {
  name: 'haproxy',
  present: () => existsSync('/usr/sbin/haproxy'),
  install: 'apt-get install haproxy',
};

export const PARTS = [REDIS, HAPROXY];

export const inCi = (env: NodeJS.ProcessEnv = process.env): boolean =>
  env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0';

/** What a missing thing means here: a skip naming the install line, or in CI a failure. */
export interface Outcome {
  fail(message: string): unknown;
  /** tap's: a skipped subtest, named with the reason, counted in the summary. */
  skip(name: string, cb: () => void): unknown;
}

/** Reports `reason` as a skip outside CI and as a failure in CI; returns false so callers stop. */
export function missing(t: Outcome, reason: string, env: NodeJS.ProcessEnv = process.env): false {
  if (inCi(env)) t.fail(`${reason} (CI needs it)`);
  else t.skip(reason, () => {});
  return false;
}

/** True when every part is present; otherwise reports the missing ones (see `missing`). */
export function needs(t: Outcome, parts: Part[], env: NodeJS.ProcessEnv = process.env): boolean {
  const absent = parts.filter((part) => !part.present());
  if (absent.length === 0) return true;
  return missing(t, absent.map((part) => `${part.name} is not installed: ${part.install}`).join('; '), env);
}

// `tsx test/system/parts.ts`: what the system suite needs, before it runs.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log('The system suite starts real parts (test/system/):');
  for (const part of PARTS)
    console.log(`  ${part.present() ? 'found  ' : 'MISSING'} ${part.name}${part.present() ? '' : `: ${part.install}`}`);
  console.log('  It builds the site (npm run build) when dist/ is missing, and installs production');
  console.log("  dependencies from npm's cache only (no network): run `npm ci` once beforehand.");
  if (!inCi()) console.log('  Outside CI a missing part is a skip; with CI set it is a failure.');
}
