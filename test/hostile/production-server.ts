import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Test } from 'tap';
import { EXIT_WITH_PARENT } from '../exit-with-parent-args.ts';
import { until } from '../until.ts';

/**
 * The production build (`dist/server/main.js`, NODE_ENV=production) in a child process, as
 * `npm start` and the Docker image run it, for the hostile-client suite. A watchdog fails the test
 * the moment the process exits for any reason other than the test stopping it.
 */
export interface ProductionServer {
  port: number;
  metricsPort: number;
  pid: number;
  /** False once the process has exited. */
  alive(): boolean;
  /** The Prometheus text of its metrics. */
  metrics(): Promise<string>;
  /** The value of one metric sample (`name{labels}`), 0 when absent. */
  metric(sample: string): Promise<number>;
  /** Its peak resident set size so far, in bytes (Linux: VmHWM). */
  peakRssBytes(): number;
  /** Its resident set size now, in bytes (Linux: VmRSS). */
  rssBytes(): number;
  /** Log lines (JSON) it has written. */
  logs: string[];
}

/** A port nobody listens on now, for the metrics listener (it cannot be 0 beside PORT=0). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export async function startProductionServer(
  t: Test,
  env: Record<string, string> = {},
  { cwd }: { cwd?: string } = {},
): Promise<ProductionServer> {
  const metricsPort = await freePort();
  // `cwd`: another folder laid out like the project (its own public/, say), as `npm start` reads it.
  const child: ChildProcess = spawn(process.execPath, [...EXIT_WITH_PARENT, 'dist/server/main.js'], {
    ...(cwd ? { cwd } : {}),
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      METRICS_PORT: String(metricsPort),
      SHUTDOWN_DRAIN_MS: '0',
      GRAPHQL_DEMO_CHANGE_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stopping = false;
  let exit: string | undefined;
  const logs: string[] = [];
  let pending = '';
  const collect = (chunk: Buffer) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    logs.push(...lines);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  child.once('exit', (code, signal) => {
    exit = `code ${code}, signal ${signal}`;
    // The watchdog: whatever the test is doing, a server that exits on its own fails it.
    if (!stopping) t.fail(`the server process exited (${exit}); last log lines:\n${logs.slice(-5).join('\n')}`);
  });
  t.teardown(async () => {
    stopping = true;
    if (exit !== undefined) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  });
  const listening = await until(
    () => {
      if (exit !== undefined) throw new Error(`the server exited before listening (${exit}): ${logs.join('\n')}`);
      for (const line of logs) {
        const port = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(line)?.[1];
        if (port) return Number(port);
      }
      return 0;
    },
    { what: 'the server to listen', timeout: 60_000, every: 50 },
  );
  const metrics = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  return {
    port: listening,
    metricsPort,
    pid: child.pid ?? 0,
    alive: () => exit === undefined,
    metrics,
    metric: async (sample) => {
      for (const line of (await metrics()).split('\n')) {
        if (line.startsWith(`${sample} `)) return Number(line.slice(sample.length + 1));
      }
      return 0;
    },
    peakRssBytes: () => statusBytes(child.pid, 'VmHWM'),
    rssBytes: () => statusBytes(child.pid, 'VmRSS'),
    logs,
  };
}

/** A size from a process's /proc status (`VmHWM`, `VmRSS`), in bytes; 0 once it has gone. */
function statusBytes(pid: number | undefined, field: string): number {
  try {
    const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb ?? 0) * 1024;
  } catch {
    return 0;
  }
}
