import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import t from 'tap';
import { EXIT_WITH_PARENT } from './exit-with-parent-args.ts';
import { until } from './until.ts';

/** Running, as far as a signal can tell: not gone and not a zombie nobody has reaped yet. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const state = /^State:\s+(\S)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return state !== 'Z' && state !== 'X';
}

/**
 * A starter (as a test file is) starts a long-running child with `preload` and, once the child is up
 * (as a test waits for its server's health), is killed with SIGKILL, as tap ends a file past its
 * timeout: no exit handler of the starter runs.
 */
async function orphan(preload: readonly string[]): Promise<{ pid: number; starter: number }> {
  const child = `console.log('up'); setInterval(() => {}, 1000)`;
  const starter = spawn(
    process.execPath,
    [
      '-e',
      `const c = require('node:child_process').spawn(process.execPath, ${JSON.stringify([...preload, '-e', child])}, { stdio: ['ignore', 'inherit', 'inherit'] }); console.log(c.pid);`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  starter.stdout.on('data', (chunk: Buffer) => {
    out += chunk;
  });
  await until(() => out.includes('up'), { what: 'the child to be up', timeout: 20_000 });
  starter.kill('SIGKILL');
  await new Promise((resolve) => starter.once('exit', resolve));
  return { pid: Number.parseInt(out, 10), starter: starter.pid ?? 0 };
}

/** The parent a process has now (field 4 of /proc/PID/stat; the name before it has no spaces here). */
const parentOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ')[3]);

t.test('a server started with the preload stops once its starter is killed outright', async (t) => {
  const { pid } = await orphan(EXIT_WITH_PARENT);
  t.teardown(() => running(pid) && process.kill(pid, 'SIGKILL'));
  t.ok(await until(() => !running(pid), { what: `process ${pid} to stop`, timeout: 10_000 }));
});

t.test('without it, the orphan runs on (what the preload is for)', async (t) => {
  const { pid, starter } = await orphan([]);
  t.teardown(() => running(pid) && process.kill(pid, 'SIGKILL'));
  t.not(parentOf(pid), starter, 'handed to another parent');
  t.ok(running(pid), 'still running once its starter is gone');
});
