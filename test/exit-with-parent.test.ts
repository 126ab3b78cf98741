import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import t from 'tap';
import { EXIT_WITH_PARENT } from './exit-with-parent-args.ts';
import { until } from './until.ts';

/**
 * A process's state letter and parent, or undefined once it is gone: from /proc where there is one
 * (a bare Debian has no `ps`), from `ps` elsewhere (macOS has no /proc).
 */
function processInfo(pid: number): { state: string; parent: number } | undefined {
  if (existsSync('/proc')) {
    // /proc/PID/stat: "pid (name) state ppid …"; the name may hold spaces, so read after its ')'.
    const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
    const [state = '', parent = ''] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return stat ? { state, parent: Number(parent) } : undefined;
  }
  const out = spawnSync('ps', ['-o', 'stat=,ppid=', '-p', String(pid)], { encoding: 'utf8' });
  const [state = '', parent = ''] = out.stdout.trim().split(/\s+/);
  return out.status === 0 ? { state, parent: Number(parent) } : undefined;
}

/** Running: not gone, and not a zombie nobody has reaped yet. */
const running = (pid: number) => !(processInfo(pid)?.state ?? 'Z').startsWith('Z');

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

t.test('a server started with the preload stops once its starter is killed outright', async (t) => {
  const { pid } = await orphan(EXIT_WITH_PARENT);
  t.teardown(() => running(pid) && process.kill(pid, 'SIGKILL'));
  t.ok(await until(() => !running(pid), { what: `process ${pid} to stop`, timeout: 10_000 }));
});

t.test('without it, the orphan runs on (what the preload is for)', async (t) => {
  const { pid, starter } = await orphan([]);
  t.teardown(() => running(pid) && process.kill(pid, 'SIGKILL'));
  t.not(processInfo(pid)?.parent, starter, 'handed to another parent');
  t.ok(running(pid), 'still running once its starter is gone');
});
