/**
 * What the bench scripts share: child processes pinned to the serving core (and all of them stopped
 * on exit or a signal), free ports, plain HTTP reads with any Host header, and autocannon rounds.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon, { type AutocannonResult } from 'autocannon';
import { EXIT_WITH_PARENT } from '../test/exit-with-parent-args.ts';

export const HAS_TASKSET = spawnSync('which', ['taskset'], { stdio: 'ignore' }).status === 0;
/** The server under test runs here… */
export const SERVER_CORE = '0';
/** …and the load generator (this process) here. */
export const LOAD_CORE = '1';

const children = new Set<ChildProcess>();

/** Pins this process (every thread) to the load core, away from the server. */
export function pinSelf(): void {
  if (HAS_TASKSET) spawnSync('taskset', ['-a', '-p', '-c', LOAD_CORE, String(process.pid)], { stdio: 'ignore' });
}

/** Lets this process (and what it starts next, such as a browser) run on every core again. */
export function unpinSelf(): void {
  if (HAS_TASKSET)
    spawnSync('taskset', ['-a', '-p', '-c', `0-${availableParallelism() - 1}`, String(process.pid)], {
      stdio: 'ignore',
    });
}

function killAll(signal: NodeJS.Signals): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
}

let exiting = false;
process.on('exit', () => killAll('SIGKILL'));
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (exiting) return;
    exiting = true;
    console.error(`\n${signal}: stopping the bench servers`);
    killAll('SIGTERM');
    setTimeout(() => process.exit(130), 1500).unref();
  });
}

export interface Started {
  child: ChildProcess;
  port: number;
  pid: number;
  log: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Starts `node args…` pinned to the server core (or `core`) with `env`, logging to a file (a pipe nobody read
 * would block the server), and waits until `/healthcheck` answers.
 */
export async function startNode(
  name: string,
  args: string[],
  env: Record<string, string>,
  options: { core?: string; cwd?: string } = {},
): Promise<Started> {
  const port = await freePort();
  const log = join(tmpdir(), `vitrine-bench-${name}-${process.pid}.log`);
  const fd = openSync(log, 'w');
  const command = HAS_TASKSET ? 'taskset' : process.execPath;
  const node = [...EXIT_WITH_PARENT, ...args];
  const commandArgs = HAS_TASKSET ? ['-c', options.core ?? SERVER_CORE, process.execPath, ...node] : node;
  const child = spawn(command, commandArgs, {
    ...(options.cwd ? { cwd: options.cwd } : {}),
    // Metrics off unless a row asks for them (METRICS_PORT): the default port would clash between servers.
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      METRICS_PORT: '0',
      SHUTDOWN_DRAIN_MS: '0',
      ...env,
    },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  children.add(child);
  child.on('exit', () => children.delete(child));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}); see ${log}`);
    try {
      const res = await get(port, '/healthcheck', { host: 'localhost' });
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not start in 30 s; see ${log}`);
    }
    await sleep(100);
  }
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
    // The log of a server that started and stopped is of no more use (a failed start keeps its log).
    rmSync(log, { force: true });
  };
  return { child, port, pid: child.pid ?? 0, log, stop };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resident set size of a process in bytes (Linux), or NaN. */
export function rssOf(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

export interface Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One GET with any headers (fetch would drop Host); the body as sent, compressed or not. */
export function get(port: number, path: string, headers: Record<string, string>): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.setTimeout(15_000, () => req.destroy(new Error(`GET ${path} timed out`)));
    req.on('error', reject);
    req.end();
  });
}

/** CPU time (user + system) a process has used, in ms (Linux), or NaN. */
export function cpuMsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // utime and stime, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

export interface Round {
  rps: number;
  /** Server CPU per request: steadier than requests/s on a machine shared with other work. */
  cpuMsPerRequest: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
}

function roundOf(result: AutocannonResult, cpuMs: number): Round {
  return {
    rps: result.requests.average,
    cpuMsPerRequest: result.requests.total > 0 ? cpuMs / result.requests.total : Number.NaN,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count])),
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/** One server and path to load. */
export interface Target {
  pid: number;
  port: number;
  path: string;
}

/**
 * Several targets measured in turns (a warm-up each, then round 1 of every target, round 2 of
 * every target…), so a busy machine weighs on all of them alike; the best round of each (by
 * requests/s) is reported, in the targets' order.
 */
export async function measureInTurns(
  targets: readonly Target[],
  headers: Record<string, string>,
  plan: { connections: number; warmupS: number; roundS: number; rounds: number },
  onRound?: (index: number, round: Round) => void,
): Promise<Round[]> {
  const url = (t: Target) => `http://127.0.0.1:${t.port}${t.path}`;
  for (const target of targets)
    await autocannon({ url: url(target), headers, connections: plan.connections, duration: plan.warmupS });
  const best: (Round | undefined)[] = targets.map(() => undefined);
  for (let i = 0; i < plan.rounds; i++) {
    for (const [index, target] of targets.entries()) {
      const cpuBefore = cpuMsOf(target.pid);
      const result = await autocannon({
        url: url(target),
        headers,
        connections: plan.connections,
        duration: plan.roundS,
      });
      const round = roundOf(result, cpuMsOf(target.pid) - cpuBefore);
      onRound?.(index, round);
      const kept = best[index];
      if (!kept || round.rps > kept.rps) best[index] = round;
    }
  }
  return best as Round[];
}

/** A warm-up, then `rounds` timed rounds; the best round (by requests/s) is the one reported. */
export async function measure(
  pid: number,
  port: number,
  path: string,
  headers: Record<string, string>,
  plan: { connections: number; warmupS: number; roundS: number; rounds: number },
): Promise<Round> {
  return (await measureInTurns([{ pid, port, path }], headers, plan))[0] as Round;
}
