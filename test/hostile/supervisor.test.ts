import { spawn } from 'node:child_process';
import t from 'tap';
import { until } from '../until.ts';

/**
 * The `WORKERS` supervisor of the production build, two workers. A signal sent to the supervisor
 * alone (kill, systemd, a process manager) must drain the workers; SIGINT once drained nothing.
 */

t.test('SIGINT to the supervisor alone drains every worker, as SIGTERM does', async (t) => {
  // SIGTERM takes the same path (every worker is sent SIGTERM), so SIGINT alone is run here.
  for (const signal of ['SIGINT'] as const) {
    const child = spawn(process.execPath, ['dist/server/main.js'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOST: '127.0.0.1',
        NODE_ENV: 'production',
        WORKERS: '2',
        PORT: '0',
        METRICS_PORT: '0',
        SHUTDOWN_DRAIN_MS: '0',
        GRAPHQL_DEMO_CHANGE_MS: '0',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
      // Its own process group, so only the supervisor gets the signal (not a terminal's whole group).
      detached: true,
    });
    t.teardown(() => child.exitCode === null && child.kill('SIGKILL'));
    const messages: string[] = [];
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        try {
          messages.push(String(JSON.parse(line).msg));
        } catch {}
      }
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await until(() => messages.filter((m) => m.startsWith('Server listening')).length === 2, {
      what: 'two workers listening',
      timeout: 60_000,
    });
    child.kill(signal);
    t.equal(await exited, 0, `${signal}: the supervisor exits cleanly`);
    t.equal(messages.filter((m) => m === 'Shutting down: draining').length, 2, `${signal}: both workers drained`);
    t.equal(messages.filter((m) => m === 'Closed').length, 3, `${signal}: both workers and the supervisor closed`);
  }
});
