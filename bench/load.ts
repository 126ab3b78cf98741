/**
 * The load test (`npm run bench -- --load`): 200 connections for 60 s against a mix of
 * pages on three storefronts, while the content comes from a fake upstream that fails half the
 * time (5xx, garbage JSON, slow, reset). The server runs with the HTML cache on and short cache
 * lifetimes, so pages keep being re-rendered from a failing upstream throughout. Reports responses
 * by kind and fails when any response was a 500 carrying a stack trace.
 *
 * LOAD_SECONDS and LOAD_CONNECTIONS change the defaults (60 and 200); LOAD_WORKERS=2 runs the server
 * with two workers on both cores (the load generator then shares one of them).
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon, { type AutocannonRequest } from 'autocannon';
import { BENCH_HOST } from './config.ts';
import { cpuMsOf, get, LOAD_CORE, sleep, startNode } from './lib.ts';

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
/** The cold start (empty caches, failing upstream) is reported on its own, before the 60 s. */
const COLD_SECONDS = Number(process.env.LOAD_COLD_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 200);
const WORKERS = process.env.LOAD_WORKERS ?? '1';
const HOSTS = [BENCH_HOST, 'www.halden.de', 'www.halden.ch'];
const PAGE_IDS = ['200', '300', '4711', '4712', '5810', '6020', '7000', '8000'];

type Fault = 'pass' | '5xx' | 'garbage' | 'slow' | 'reset';
const FAULTS: Fault[] = ['5xx', 'garbage', 'slow', 'reset'];

/**
 * A content service that fails half the time: otherwise it proxies to the embedded store's HTTP
 * face, which answers for the storefront the forwarded host names.
 */
function fakeUpstream(storePort: number) {
  const counts: Record<Fault, number> = { pass: 0, '5xx': 0, garbage: 0, slow: 0, reset: 0 };
  const proxy = (req: IncomingMessage, res: ServerResponse) => {
    const host = String(req.headers['x-forwarded-host'] ?? BENCH_HOST);
    const upstream = httpRequest(
      { host: '127.0.0.1', port: storePort, path: req.url, headers: { host, accept: 'application/json' } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, {
          'content-type': answer.headers['content-type'] ?? 'application/json',
        });
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    upstream.end();
  };
  const server = createServer((req, res) => {
    const fault: Fault = Math.random() < 0.5 ? 'pass' : (FAULTS[Math.floor(Math.random() * FAULTS.length)] as Fault);
    counts[fault]++;
    switch (fault) {
      case 'pass':
        return proxy(req, res);
      case '5xx':
        res.writeHead(Math.random() < 0.5 ? 500 : 503, { 'content-type': 'application/json' });
        return res.end('{"error":"upstream is having a bad day"}');
      case 'garbage':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"entries":[{"uid":"4711","title":');
      case 'slow': {
        // Past the client's 5 s header timeout half the time, just under it otherwise.
        const timer = setTimeout(() => proxy(req, res), Math.random() < 0.5 ? 6_000 : 2_500);
        res.on('close', () => clearTimeout(timer));
        return;
      }
      case 'reset':
        return req.socket.destroy();
    }
  });
  return { server, counts };
}

/** What a response was, from the visitor's side. */
function kindOf(status: number, body: string): string {
  if (status === 500)
    return /\n\s+at .+[:(]\d+/.test(body) || /\bat\s+\S+\s+\(.*:\d+:\d+\)/.test(body) ? '500 with stack trace' : '500';
  if (status === 503) return body.includes('The server is busy') ? '503 shed (under pressure)' : '503 error page';
  return String(status);
}

export async function runLoadTest(): Promise<boolean> {
  console.log('');
  console.log(
    `load test: ${CONNECTIONS} connections for ${SECONDS} s, content upstream failing half the time, WORKERS=${WORKERS}`,
  );
  const store = await startNode('load-store', ['dist/server/main.js'], { HTML_CACHE: 'off' }, { core: LOAD_CORE });
  const upstream = fakeUpstream(store.port);
  await new Promise<void>((resolve) => upstream.server.listen(0, '127.0.0.1', resolve));
  const upstreamUrl = `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}`;
  const server = await startNode(
    'load-server',
    ['dist/server/main.js'],
    {
      CONTENT_SERVICE_URL: upstreamUrl,
      APP_CONFIG_URL: upstreamUrl,
      HTML_CACHE: 'on',
      HTML_CACHE_TTL_MS: '2000',
      CONTENT_CACHE_TTL_MS: '1000',
      WORKERS,
    },
    WORKERS === '1' ? {} : { core: '0,1' },
  );
  try {
    // The mix: each storefront's home page and its pages at their canonical paths (asked of the
    // store itself), a 404 and a canonical redirect.
    const paths: { host: string; path: string }[] = [];
    for (const host of HOSTS) {
      paths.push({ host, path: '/' });
      for (const id of PAGE_IDS) {
        let path = `/cs/x-${id}`;
        for (let hops = 0; hops < 4; hops++) {
          const res = await get(store.port, path, { host });
          const location = res.headers.location;
          if (res.status === 200) {
            paths.push({ host, path });
            break;
          }
          if (typeof location !== 'string') break;
          path = new URL(location, 'http://x').pathname;
        }
      }
    }
    paths.push(
      { host: BENCH_HOST, path: '/cs/nope-999' },
      { host: BENCH_HOST, path: '/cs/x/aquasense-60-dishwasher-4711' },
    );

    let kinds = new Map<string, number>();
    const requests: AutocannonRequest[] = paths.map(({ host, path }) => ({
      method: 'GET',
      path,
      headers: { host, accept: 'text/html' },
      onResponse: (status, body) => {
        const kind = kindOf(status, body);
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      },
    }));
    // Health stays answered throughout (it is never shed).
    let healthWorst = 0;
    let healthFailures = 0;
    let running = true;
    const health = (async () => {
      while (running) {
        const started = Date.now();
        try {
          const res = await get(server.port, '/healthcheck', { host: 'localhost' });
          if (res.status !== 200) healthFailures++;
        } catch {
          healthFailures++;
        }
        healthWorst = Math.max(healthWorst, Date.now() - started);
        await sleep(1000);
      }
    })();
    let stacks = 0;
    const phase = async (label: string, seconds: number) => {
      kinds = new Map();
      let client = 0;
      // Busy shares tell who limited the run: the server, or the load generator sharing the other core.
      const serverCpuBefore = cpuMsOf(server.pid);
      const ownCpuBefore = process.cpuUsage();
      const startedAt = Date.now();
      const result = await autocannon({
        url: `http://127.0.0.1:${server.port}`,
        connections: CONNECTIONS,
        duration: seconds,
        timeout: 30,
        requests,
        // Each connection walks the mix from its own place, as visitors do, not all in step.
        setupClient: (c) => {
          const start = client++ % requests.length;
          c.setRequests([...requests.slice(start), ...requests.slice(0, start)]);
        },
      });
      const wallMs = Date.now() - startedAt;
      const serverBusy = Math.round(((cpuMsOf(server.pid) - serverCpuBefore) / wallMs) * 100);
      const own = process.cpuUsage(ownCpuBefore);
      const ownBusy = Math.round(((own.user + own.system) / 1000 / wallMs) * 100);
      stacks += kinds.get('500 with stack trace') ?? 0;
      const total = [...kinds.values()].reduce((a, b) => a + b, 0);
      const byKind = [...kinds.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([kind, n]) => `${kind}: ${n}`)
        .join(', ');
      console.log(
        `  ${label}: ${total} responses, ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
      );
      console.log(
        `    by kind: ${byKind}; connection errors: ${result.errors - result.timeouts}, timeouts: ${result.timeouts}`,
      );
      console.log(`    CPU busy: server ${serverBusy}% of its core, load generator ${ownBusy}% of the other`);
    };
    console.log(`  mix: ${paths.length} pages on ${HOSTS.length} storefronts (home, content pages, a 404, a redirect)`);
    if (COLD_SECONDS > 0) await phase(`cold start, first ${COLD_SECONDS} s`, COLD_SECONDS);
    await phase(`then ${SECONDS} s`, SECONDS);
    running = false;
    await health;

    // The bound: the same connections against the static-string ceiling on the same core. No
    // server answers 200 connections on one core faster than this; ours is measured against it.
    const ceiling = await startNode('load-ceiling', ['--import', 'tsx', 'bench/baseline-server.ts'], {});
    try {
      const reference = await autocannon({
        url: `http://127.0.0.1:${ceiling.port}/ceiling`,
        connections: CONNECTIONS,
        duration: Math.min(SECONDS, 20),
        headers: { host: BENCH_HOST, accept: 'text/html' },
      });
      console.log(
        `  reference, the static-string ceiling under the same ${CONNECTIONS} connections: ${Math.round(reference.requests.average)} req/s, p50 ${reference.latency.p50} ms, p99 ${reference.latency.p99} ms`,
      );
    } finally {
      await ceiling.stop();
    }

    const c = upstream.counts;
    console.log(
      `  upstream answers: ${c.pass} good, ${c['5xx']} 5xx, ${c.garbage} garbage JSON, ${c.slow} slow, ${c.reset} reset`,
    );
    console.log(`  health checks: worst ${healthWorst} ms, ${healthFailures} failed`);
    console.log(`  no 500 with a stack trace: ${stacks === 0 ? 'yes' : `NO (${stacks})`}`);
    return stacks === 0;
  } finally {
    await server.stop();
    await store.stop();
    upstream.server.closeAllConnections();
    upstream.server.close();
  }
}
