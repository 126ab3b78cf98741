import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { EXIT_WITH_PARENT } from '../exit-with-parent-args.ts';
import { until } from '../until.ts';
import { launchBrowser } from './browser.ts';
import { currentGroup, envUnchanged } from './group.ts';

/** The project root: the built server runs from there (it reads config/, content/ and dist/). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** How long the built server gets to answer /healthcheck (the contract promises 10 s with the build present). */
const STARTUP_LIMIT_MS = 30_000;

export interface RunningServer {
  port: number;
  /** `http://127.0.0.1:{port}` */
  origin: string;
  /** An absolute URL on a storefront alias: `url('uk', '/cs/…')` → `http://uk.localhost:{port}/cs/…`. */
  url(storefront: string, path?: string): string;
  /** GET a path on a storefront alias (Host `{storefront}.localhost:{port}`), redirects not followed. */
  get(storefront: string, path: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }>;
  /** Everything the server wrote, for failure messages. */
  output(): string;
  stop(): Promise<void>;
  /** The process's id (the primary's, with WORKERS). */
  pid: number;
  /** Its exit code once it has exited (null when a signal ended it). */
  exited: Promise<number | null>;
}

/** A port nobody listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!port) throw new Error('could not find a free port');
  return port;
}

async function healthy(origin: string): Promise<boolean> {
  try {
    const response = await fetch(`${origin}/healthcheck`, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

/**
 * Starts the production build (`node dist/server/main.js`) on a free port and waits, bounded, until
 * `/healthcheck` answers 200. Register `stop` with `t.teardown`. In a group of files
 * (test/e2e/together.ts), a `share`d server (by default the usual one, without `env`) is started once
 * for every file that asks for the same `env` with `process.env` as the group found it, and its
 * `stop` leaves it to the group.
 */
export async function startServer(
  env: Record<string, string> = {},
  { share = Object.keys(env).length === 0 }: { share?: boolean } = {},
): Promise<RunningServer> {
  const group = currentGroup();
  if (!group || !share || !envUnchanged(group)) return startOwnServer(env);
  const key = JSON.stringify(Object.entries(env).sort());
  const shared = group.servers.get(key) ?? startOwnServer(env);
  group.servers.set(key, shared);
  return { ...(await shared), stop: async () => {} };
}

/** A server no other file shares, even in a group: for a test that kills it or needs several. */
export async function startOwnServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [...EXIT_WITH_PARENT, 'dist/server/main.js'], {
    cwd: ROOT,
    // No metrics port (9464 would clash between parallel servers) and no drain wait on stop.
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      METRICS_PORT: '0',
      SHUTDOWN_DRAIN_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 12_000);
    await exited;
    clearTimeout(timer);
  };

  const up = await until(
    async () =>
      child.exitCode !== null || child.signalCode !== null ? 'exited' : (await healthy(origin)) && 'healthy',
    { what: '/healthcheck', timeout: STARTUP_LIMIT_MS, every: 100 },
  ).catch(() => 'timeout' as const);
  if (up === 'exited')
    throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before it was healthy:\n${log}`);
  if (up === 'timeout') {
    await stop();
    throw new Error(`the server did not answer /healthcheck within ${STARTUP_LIMIT_MS} ms:\n${log}`);
  }

  return {
    port,
    origin,
    url: (storefront, path = '/') => `http://${storefront}.localhost:${port}${path}`,
    get: (storefront, path) => get(port, `${storefront}.localhost:${port}`, path),
    output: () => log,
    stop,
    pid: child.pid ?? 0,
    exited,
  };
}

/** Node's fetch refuses to set Host; a plain http request does not. */
export function get(
  port: number,
  host: string,
  path: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`GET ${host}${path} timed out`)));
    req.on('error', reject);
    req.end();
  });
}

/**
 * The usual set-up of a browser test file: the built server and Chromium, both stopped when the
 * file's tests end. Call with top-level await: `const { server, browser } = await startSuite(t)`.
 */
export async function startSuite(
  t: { teardown(fn: () => unknown): void },
  /** Extra environment of the server (another CONTENT_DIR). */
  env: Record<string, string> = {},
): Promise<{ server: RunningServer; browser: Browser }> {
  const server = await startServer(env);
  const browser = await launchBrowser();
  t.teardown(async () => {
    await browser.close();
    await server.stop();
  });
  return { server, browser };
}
