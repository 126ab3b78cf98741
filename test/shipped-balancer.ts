import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import { freePort } from './e2e/server.ts';
import { until } from './until.ts';

/** Where Debian puts HAProxy (test/system/parts.ts `HAPROXY` checks it is there). */
export const HAPROXY_BIN = '/usr/sbin/haproxy';

/** A running shipped balancer: where it listens, and what it counts. */
export interface Balancer {
  port: number;
  /**
   * The connections the balancer counts from `address` (its stick table, read on its runtime
   * socket): a client's connect completes in the kernel before HAProxy has accepted and counted it.
   */
  connectionsFrom(address: string): Promise<number>;
}

/**
 * `deploy/haproxy.cfg` as compose runs it, listening on a free local port with every server pointed
 * at `backendPort`: the shipped config itself, only its addresses swapped and a runtime socket added
 * for the tests to read. Resolves once it forwards (its health check has found the backend up: a
 * request through it is answered by the backend, not 503); stopped with the test.
 */
export async function shippedBalancer(t: Test, backendPort: number): Promise<Balancer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-haproxy-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const runtimeSocket = join(dir, 'runtime.sock');
  const config = readFileSync('deploy/haproxy.cfg', 'utf8')
    .replace(/^global$/m, `global\n  stats socket ${runtimeSocket}`)
    .replace(/^ {2}bind :8080$/m, `  bind 127.0.0.1:${port}`)
    .replace(/ resolvers docker init-addr libc,none/, '')
    .replace(/^resolvers docker\n.*\n/m, '')
    .replace(/server (app\d) app\d:3000/g, `server $1 127.0.0.1:${backendPort}`);
  writeFileSync(join(dir, 'haproxy.cfg'), config);
  const balancer = spawn(HAPROXY_BIN, ['-db', '-f', join(dir, 'haproxy.cfg')], { stdio: 'ignore' });
  t.teardown(() => balancer.kill('SIGKILL'));
  await until(
    // A connection of its own each time, closed after the answer: none is left for the tests to count.
    () =>
      new Promise<boolean>((resolve) => {
        get({ port, host: '127.0.0.1', path: '/healthcheck', agent: false }, (response) => {
          response.resume();
          resolve(response.statusCode !== 503);
        }).on('error', () => resolve(false));
      }),
    { timeout: 20_000, every: 50, what: 'the balancer to forward to the backend' },
  );
  return { port, connectionsFrom: (address) => connectionsFrom(runtimeSocket, address) };
}

/** `conn_cur` of `address` in the frontend's stick table (an IPv4 address is keyed IPv4-mapped). */
async function connectionsFrom(runtimeSocket: string, address: string): Promise<number> {
  const table = await new Promise<string>((resolve, reject) => {
    let text = '';
    const socket = connect(runtimeSocket, () => socket.end('show table web\n'));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
  const key = address.includes(':') ? address : `::ffff:${address}`;
  const row = table.split('\n').find((line) => line.includes(` key=${key} `));
  return Number(/ conn_cur=(\d+)/.exec(row ?? '')?.[1] ?? 0);
}
