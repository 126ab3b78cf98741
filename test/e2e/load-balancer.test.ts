import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { until } from '../until.ts';
import { freePort, type RunningServer, startOwnServer } from './server.ts';

/**
 * Three instances behind Debian's HAProxy, health-checked on /readyz. One instance is killed while
 * requests flow: only requests in flight on it may fail, and the balancer stops sending it traffic.
 */

const HAPROXY = '/usr/sbin/haproxy';
const PRODUCT = '/cs/kitchen/aquasense-60-dishwasher-4711';
const CLIENTS = 4;

function haproxyConfig(port: number, backends: number[]): string {
  return `global
  maxconn 1000
  log stderr format raw local0 info
defaults
  mode http
  log global
  option httplog
  retries 3
  option redispatch 1
  timeout check 2s
  timeout connect 1s
  timeout client 10s
  timeout server 10s
frontend web
  bind 127.0.0.1:${port}
  default_backend app
backend app
  balance roundrobin
  option httpchk
  http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host localhost
  http-check expect status 200
  default-server inter 300ms fall 2 rise 2
${backends.map((p, i) => `  server app${i} 127.0.0.1:${p} check`).join('\n')}
`;
}

function get(port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: `uk.localhost:${port}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.setTimeout(10_000, () => req.destroy());
    req.on('error', () => resolve(0));
    req.end();
  });
}

t.test('an instance killed behind the balancer costs at most the requests in flight on it', async (t) => {
  if (!existsSync(HAPROXY)) {
    t.fail(`${HAPROXY} is missing: .ci/run installs Debian's haproxy`);
    return;
  }
  const instances: RunningServer[] = [];
  for (let i = 0; i < 3; i++) instances.push(await startOwnServer());
  t.teardown(() => Promise.all(instances.map((s) => s.stop())));

  const dir = mkdtempSync(join(tmpdir(), 'vitrine-lb-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const port = await freePort();
  const config = join(dir, 'haproxy.cfg');
  writeFileSync(
    config,
    haproxyConfig(
      port,
      instances.map((s) => s.port),
    ),
  );
  const balancer: ChildProcess = spawn(HAPROXY, ['-db', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  t.teardown(() => balancer.kill('SIGKILL'));
  let balancerLog = '';
  balancer.stderr?.on('data', (chunk: Buffer) => {
    balancerLog += chunk.toString();
  });
  t.teardown(() => {
    if (!t.passing()) console.error(`haproxy log (end):\n${balancerLog.slice(-3000)}`);
  });
  await until(async () => (await get(port, '/healthcheck')) === 200, { what: 'haproxy', timeout: 10_000, every: 50 });

  const results: { at: number; status: number }[] = [];
  let running = true;
  const client = async () => {
    while (running) {
      const status = await get(port, PRODUCT);
      results.push({ at: Date.now(), status });
    }
  };
  const clients = Array.from({ length: CLIENTS }, client);
  await until(() => results.length > 50, { what: 'requests through the balancer', timeout: 30_000 });
  const killedAt = Date.now();
  const victim = instances[1] as RunningServer;
  process.kill(victim.pid, 'SIGKILL');
  await victim.exited;
  // Past the first second after the kill, the health check has taken the victim out.
  const settledCount = () => results.filter((r) => r.at > killedAt + 1_000).length;
  await until(() => settledCount() > 50, { what: 'requests after the health check', timeout: 30_000 });
  running = false;
  await Promise.all(clients);

  const failed = results.filter((r) => r.status !== 200);
  t.ok(results.length > 50, `requests flowed (${results.length})`);
  t.ok(failed.length <= CLIENTS, `at most one failure per client in flight (${failed.length} failed)`);
  const settled = results.filter((r) => r.at > killedAt + 1_000);
  t.ok(settled.length > 10, 'requests went on after the kill');
  t.same(
    settled.filter((r) => r.status !== 200),
    [],
    'once the health check has taken it out, every request succeeds',
  );
});
