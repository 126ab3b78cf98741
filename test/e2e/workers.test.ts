import t from 'tap';
import { until } from '../until.ts';
import { freePort, startServer } from './server.ts';

/**
 * `WORKERS=2`: two server processes share the port under one supervisor, which serves their summed
 * metrics, replaces a worker that dies and drains both on SIGTERM, then exits 0.
 */

const PRODUCT = '/cs/kitchen/aquasense-60-dishwasher-4711';

/** Worker pids the supervisor announced, in order, from its JSON log lines. */
function workerPids(output: string): number[] {
  return output
    .split('\n')
    .filter((line) => line.includes('"Worker started"'))
    .map((line) => (JSON.parse(line) as { workerPid: number }).workerPid);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

t.test('two workers serve, a dead one is replaced, SIGTERM drains all and exits 0', async (t) => {
  const metricsPort = await freePort();
  const server = await startServer({ WORKERS: '2', METRICS_PORT: String(metricsPort) });
  t.teardown(() => server.stop());
  await until(() => workerPids(server.output()).length === 2, { what: 'two workers', timeout: 20_000, every: 50 });
  const [first, second] = workerPids(server.output()) as [number, number];
  t.not(first, second);

  for (let i = 0; i < 10; i++) t.equal((await server.get('uk', PRODUCT)).status, 200);
  // A worker counts a request once its response has finished, which can be just after the client
  // has read it: the sum is awaited, not read once.
  const pagesCounted = async () => {
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const served = [...metrics.matchAll(/^vitrine_http_requests_total\{[^}]*kind="page"[^}]*\} (\d+)/gm)];
    return served.reduce((sum, [, n]) => sum + Number(n), 0);
  };
  await until(async () => (await pagesCounted()) >= 10, {
    what: 'every served page in the summed metrics',
    timeout: 20_000,
    every: 50,
  });
  t.equal(await pagesCounted(), 10, 'the primary sums every worker’s counters');

  process.kill(first, 'SIGKILL');
  await until(() => workerPids(server.output()).length === 3, {
    what: 'a replacement worker',
    timeout: 20_000,
    every: 50,
  });
  t.match(server.output(), /"Worker died"/, 'the death is logged');
  const replacement = workerPids(server.output())[2] as number;
  t.ok(alive(replacement) && alive(second));
  for (let i = 0; i < 10; i++) t.equal((await server.get('uk', PRODUCT)).status, 200, 'still serving');

  process.kill(server.pid, 'SIGTERM');
  t.equal(await server.exited, 0, 'the supervisor exits 0 once the workers have drained');
  t.notOk(alive(second) || alive(replacement), 'no worker is left behind');
});
