/**
 * `npm run bench`: the production server pinned to one core, loaded
 * from the other with autocannon over loopback; every scenario uncached (HTML_CACHE=off) and cached;
 * beside them a floor (the product page's React tree through `renderToString` in a bare Fastify route) and
 * a ceiling (the same HTML as a static string), set up the same way. The product page is measured
 * in turns (floor, uncached, ceiling, cached, and again), so a busy machine weighs on all four
 * alike. `--load` adds the load test (bench/load.ts); `--workers` instead compares WORKERS=1 and 2
 * (bench/workers.ts); `--visitor` runs only the visitor table (bench/visitor.ts), which otherwise
 * follows the rest. An instrument, not a test: it asserts nothing about speed, but it exits 1
 * when a row fails (a server that does not start, an unexpected status, errors or timeouts).
 *
 * `--quick` runs every row once, briefly (a smoke test for CI). BENCH_ROUND_S and BENCH_WARMUP_S
 * change the rounds (defaults 10 and 3).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { RUNTIME_RECORD } from '../islands/hydration-library.ts';
import { compressedBytes } from './compressed.ts';
import { BENCH_HOST, PRODUCT_PATH } from './config.ts';
import { formatRuntimeRows, runtimeRows } from './island-runtimes.ts';
import {
  freePort,
  get,
  HAS_TASKSET,
  LOAD_CORE,
  measure,
  measureInTurns,
  pinSelf,
  type Round,
  rssOf,
  SERVER_CORE,
  type Started,
  startNode,
  unpinSelf,
} from './lib.ts';
import { visitorLines } from './visitor.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
process.chdir(ROOT);

const SERVER_ENTRY = 'dist/server/main.js';
const CLIENT_DIR = 'dist/client';
const REFERENCE_SDK = { min: 374 * 1024, gzip: 121 * 1024 };

const quick = process.argv.includes('--quick');
const plan = quick
  ? { connections: 32, warmupS: 0.5, roundS: 1, rounds: 1 }
  : {
      connections: 32,
      warmupS: Number(process.env.BENCH_WARMUP_S ?? 3),
      roundS: Number(process.env.BENCH_ROUND_S ?? 10),
      rounds: 2,
    };

interface Scenario {
  name: string;
  path: string;
  status: number;
}

const SCENARIOS: Scenario[] = [
  { name: 'home page', path: '/', status: 200 },
  { name: 'product page, footnotes', path: PRODUCT_PATH, status: 200 },
  { name: '404', path: '/cs/nope-999', status: 404 },
  { name: 'canonical redirect', path: '/cs/x/aquasense-60-dishwasher-4711', status: 301 },
];

/** Browsers' request headers minus compression: every row, floor and ceiling send the same. */
const HEADERS = { host: BENCH_HOST, accept: 'text/html' };

interface Row {
  name: string;
  round: Round;
  htmlBytes: number;
  htmlGzip: number;
  js: { gzip: number; br: number } | null;
  rss: number;
  note: string;
  /** Every unexpected answer was a 503 of load shedding (no other status, no errors or timeouts). */
  shedOnly: boolean;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The JavaScript a page loads: its module scripts and modulepreloads, as built. */
function pageScripts(html: string): { gzip: number; br: number } {
  const urls = new Set<string>();
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) urls.add(m[1] as string);
  for (const m of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)) urls.add(m[1] as string);
  const files: string[] = [];
  for (const url of urls) {
    if (!url.startsWith('/assets/')) continue;
    const file = join(CLIENT_DIR, url.slice('/assets/'.length));
    if (!existsSync(file)) throw new Error(`${url} is linked by the page but not in ${CLIENT_DIR}`);
    files.push(file);
  }
  return compressedBytes(files);
}

/** HTML of every page that answered 200, by scenario name: the island-runtime rows count its islands. */
const pageHtml = new Map<string, string>();

/** HTML as sent (identity) and gzip as the server sends it, plus the page's JavaScript. */
async function pageBytes(port: number, path: string, expected: number) {
  const plain = await get(port, path, HEADERS);
  if (plain.status !== expected) throw new Error(`${path} answered ${plain.status}, expected ${expected}`);
  const gz = await get(port, path, { ...HEADERS, 'accept-encoding': 'gzip' });
  const gzipped = gz.headers['content-encoding'] === 'gzip' ? gz.body.length : gzipSync(plain.body).length;
  const html = plain.body.toString('utf8');
  return { htmlBytes: plain.body.length, htmlGzip: gzipped, js: expected === 200 ? pageScripts(html) : null };
}

function unexpected(round: Round, status: number): string {
  const others = Object.entries(round.statuses).filter(([code]) => Number(code) !== status);
  const parts = others.map(([code, n]) => `${n}×${code}`);
  if (round.errors) parts.push(`${round.errors} errors`);
  if (round.timeouts) parts.push(`${round.timeouts} timeouts`);
  return parts.length ? `unexpected: ${parts.join(', ')}` : '';
}

function rowOf(
  name: string,
  round: Round,
  bytes: Awaited<ReturnType<typeof pageBytes>>,
  pid: number,
  status: number,
): Row {
  const shedOnly =
    !round.errors &&
    !round.timeouts &&
    Object.keys(round.statuses).every((code) => [String(status), '503'].includes(code));
  return { name, round, ...bytes, rss: rssOf(pid), note: unexpected(round, status), shedOnly };
}

const PRODUCT = SCENARIOS[1] as Scenario;
const FLOOR = 'floor: renderToString, product page';
const CEILING = 'ceiling: static string, product page';

/**
 * Every scenario on the uncached and the cached server; the product page in turns with the floor
 * and the ceiling of the baseline server.
 */
async function pageRows(servers: { uncached: Started; cached: Started; baseline: Started }): Promise<Row[]> {
  const rows = new Map<string, Row>();
  const served = [
    ['uncached', servers.uncached],
    ['cached', servers.cached],
  ] as const;
  for (const scenario of SCENARIOS) {
    for (const [label, server] of served) {
      if (scenario.status === 200) {
        const page = await get(server.port, scenario.path, HEADERS);
        pageHtml.set(scenario.name, page.body.toString('utf8'));
      }
      if (scenario === PRODUCT) continue;
      const bytes = await pageBytes(server.port, scenario.path, scenario.status);
      process.stderr.write(`  ${scenario.name} (${label})…`);
      const round = await measure(server.pid, server.port, scenario.path, HEADERS, plan);
      process.stderr.write(` ${Math.round(round.rps)} req/s\n`);
      rows.set(
        `${scenario.name} (${label})`,
        rowOf(`${scenario.name} (${label})`, round, bytes, server.pid, scenario.status),
      );
    }
  }
  const turns = [
    { name: FLOOR, server: servers.baseline, path: '/floor' },
    { name: `${PRODUCT.name} (uncached)`, server: servers.uncached, path: PRODUCT.path },
    { name: CEILING, server: servers.baseline, path: '/ceiling' },
    { name: `${PRODUCT.name} (cached)`, server: servers.cached, path: PRODUCT.path },
  ];
  const bytes = await Promise.all(turns.map((turn) => pageBytes(turn.server.port, turn.path, 200)));
  process.stderr.write(`  ${PRODUCT.name}, floor, uncached, ceiling, cached in turns:\n`);
  const rounds = await measureInTurns(
    turns.map((turn) => ({ pid: turn.server.pid, port: turn.server.port, path: turn.path })),
    HEADERS,
    plan,
    (index, round) =>
      process.stderr.write(
        `    ${turns[index]?.name}: ${Math.round(round.rps)} req/s, p99 ${round.p99} ms, ${round.cpuMsPerRequest.toFixed(3)} CPU ms/request\n`,
      ),
  );
  for (const [i, turn] of turns.entries()) {
    const page = bytes[i] as Awaited<ReturnType<typeof pageBytes>>;
    rows.set(turn.name, rowOf(turn.name, rounds[i] as Round, page, turn.server.pid, 200));
  }
  const order = [
    ...served.flatMap(([label]) => SCENARIOS.map((scenario) => `${scenario.name} (${label})`)),
    FLOOR,
    CEILING,
  ];
  return order.map((name) => rows.get(name) as Row);
}

/**
 * What metrics cost: the product page, cached and uncached, on two servers side by side, one with
 * METRICS_PORT set (production's default) and one without, measured in turns (off, on, off, on) so
 * both see the same machine; the lower server CPU ms per request of each is reported.
 */
async function metricsLines(): Promise<string[]> {
  const product = SCENARIOS[1] as Scenario;
  const lines: string[] = [];
  for (const [label, env] of [
    ['uncached', { HTML_CACHE: 'off' }],
    ['cached', { HTML_CACHE: 'on' }],
  ] as const) {
    const metricsPort = await freePort();
    const off = await startNode(`metrics-off-${label}`, [SERVER_ENTRY], env);
    const on = await startNode(`metrics-on-${label}`, [SERVER_ENTRY], { ...env, METRICS_PORT: String(metricsPort) });
    try {
      const best = { off: Number.POSITIVE_INFINITY, on: Number.POSITIVE_INFINITY };
      for (let turn = 0; turn < plan.rounds; turn++) {
        for (const [which, server] of [
          ['off', off],
          ['on', on],
        ] as const) {
          process.stderr.write(`  ${product.name} (${label}, metrics ${which})…`);
          const round = await measure(server.pid, server.port, product.path, HEADERS, plan);
          process.stderr.write(` ${round.cpuMsPerRequest.toFixed(3)} CPU ms/request\n`);
          best[which] = Math.min(best[which], round.cpuMsPerRequest);
        }
      }
      const scraped = await get(metricsPort, '/metrics', { host: 'localhost' });
      const counted = /^vitrine_http_requests_total\{kind="page",status_class="2xx"\} (\d+)/m.exec(
        scraped.body.toString('utf8'),
      )?.[1];
      const delta = best.on - best.off;
      lines.push(
        `metrics cost, ${product.name} (${label}): ${best.off.toFixed(3)} CPU ms/request without, ` +
          `${best.on.toFixed(3)} with (${delta >= 0 ? '+' : ''}${delta.toFixed(3)} ms, ` +
          `${((delta / best.off) * 100).toFixed(1)} %); ${counted ?? '?'} page requests counted`,
      );
    } finally {
      await Promise.all([off.stop(), on.stop()]);
    }
  }
  return lines;
}

function table(rows: Row[]): string {
  const head = [
    'scenario',
    'req/s',
    'p50 ms',
    'p99 ms',
    'HTML B',
    'HTML gzip B',
    'JS gzip B',
    'JS br B',
    'RSS MB',
    'CPU ms/req',
  ];
  const body = rows.map((r) => [
    r.name,
    String(Math.round(r.round.rps)),
    r.round.p50.toFixed(1),
    r.round.p99.toFixed(1),
    String(r.htmlBytes),
    String(r.htmlGzip),
    r.js ? String(r.js.gzip) : '-',
    r.js ? String(r.js.br) : '-',
    Number.isNaN(r.rss) ? '-' : (r.rss / 1024 / 1024).toFixed(0),
    Number.isNaN(r.round.cpuMsPerRequest) ? '-' : r.round.cpuMsPerRequest.toFixed(3),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((cells) => (cells[i] as string).length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ');
  const notes = rows.filter((r) => r.note).map((r) => `  ! ${r.name}: ${r.note}`);
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line), ...notes].join('\n');
}

/** The island runtime: its entry chunk and everything it imports (the hydrating library too), minified as built. */
function runtimeLine(): string {
  const manifest = JSON.parse(readFileSync(join(CLIENT_DIR, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    { file: string; imports?: string[]; dynamicImports?: string[] }
  >;
  const { runtime } = JSON.parse(readFileSync(join(CLIENT_DIR, RUNTIME_RECORD), 'utf8')) as { runtime: string };
  const files = new Set<string>();
  const visit = (src: string) => {
    const chunk = manifest[src];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const dep of [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])]) visit(dep);
  };
  visit('islands/main.ts');
  let min = 0;
  let gzip = 0;
  for (const file of files) {
    const body = readFileSync(join(CLIENT_DIR, file));
    min += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
  }
  return `island runtime: ${kb(min)} min, ${kb(gzip)} gzip (${files.size} files, ${runtime === 'preact' ? 'preact/compat' : 'React DOM'} included)`;
}

/** The preview script's size, measured by the SDK's own script, or "not built". */
async function previewLines(): Promise<string[]> {
  const reference = `reference preview SDK: ${kb(REFERENCE_SDK.min)} min, ${kb(REFERENCE_SDK.gzip)} gzip`;
  if (!existsSync('scripts/sdk-size.ts')) return ['preview script: not built', reference];
  try {
    const sdk = (await import(join(ROOT, 'scripts/sdk-size.ts'))) as {
      measureSdk(): Promise<unknown>;
      formatSdkSizes(sizes: unknown): string[];
    };
    return [...sdk.formatSdkSizes(await sdk.measureSdk()), reference];
  } catch (error) {
    return [`preview script: not built (${(error as Error).message.split('\n')[0]})`, reference];
  }
}

/** bench/subscriptions.ts (the data layer's fan-out measure), when it exists: its output as is. */
async function subscriptionLines(): Promise<string[]> {
  if (!existsSync('bench/subscriptions.ts')) return [];
  return new Promise((resolve) => {
    const size = quick ? ['--clients', '200', '--seconds', '1'] : [];
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/subscriptions.ts', ...size], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, NODE_ENV: 'production' },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const lines = out.split('\n').filter((l) => l.trim());
      resolve(code === 0 ? lines : [...lines, `subscriptions: failed (exit ${code})`]);
    });
  });
}

/** The product page beside its references: the budgets (issue 37) as ratios, then the contract's two lines. */
function productLines(rows: Row[]): string[] {
  const find = (name: string) => rows.find((r) => r.name === name);
  const uncached = find(`${PRODUCT.name} (uncached)`);
  const cached = find(`${PRODUCT.name} (cached)`);
  const floor = find(FLOOR);
  const ceiling = find(CEILING);
  const ratio = (ours: number | undefined, reference: number | undefined) =>
    ours === undefined || reference === undefined || !reference ? '?' : `${(ours / reference).toFixed(2)}×`;
  const ms = (value: number | undefined, digits: number) => (value === undefined ? '?' : value.toFixed(digits));
  return [
    `uncached product page p99: ${ms(uncached?.round.p99, 0)} ms, the floor's ${ms(floor?.round.p99, 0)} ms ` +
      `(${ratio(uncached?.round.p99, floor?.round.p99)}, budget 1.2×); CPU ${ms(uncached?.round.cpuMsPerRequest, 3)} ms/request, ` +
      `the floor's ${ms(floor?.round.cpuMsPerRequest, 3)} (${ratio(uncached?.round.cpuMsPerRequest, floor?.round.cpuMsPerRequest)}, budget 0.9×)`,
    `cached product page CPU: ${ms(cached?.round.cpuMsPerRequest, 3)} ms/request, the ceiling's ${ms(ceiling?.round.cpuMsPerRequest, 3)} ` +
      `(${ratio(cached?.round.cpuMsPerRequest, ceiling?.round.cpuMsPerRequest)}, budget 1.5×); p99 ${ms(cached?.round.p99, 0)} ms, the ceiling's ${ms(ceiling?.round.p99, 0)} ms`,
    `uncached product page: ${percent(uncached, floor)}% of the renderToString floor`,
    `cached product page: ${percent(cached, ceiling)}% of the static ceiling`,
  ];
}

function percent(part: Row | undefined, whole: Row | undefined): string {
  if (!part || !whole || whole.round.rps === 0) return '?';
  return String(Math.round((part.round.rps / whole.round.rps) * 100));
}

async function main(): Promise<void> {
  if (!existsSync(SERVER_ENTRY)) throw new Error(`${SERVER_ENTRY} is missing: run \`npm run build\` first`);
  // The visitor table's browser needs every core a phone's would have; the load rows pin.
  if (process.argv.includes('--visitor')) {
    for (const line of await visitorLines(ROOT, { quick })) console.log(line);
    return;
  }
  pinSelf();
  if (process.argv.includes('--workers')) {
    const { workerLines } = await import('./workers.ts');
    for (const line of await workerLines(plan)) console.log(line);
    return;
  }
  const load = process.argv.includes('--load');
  const rowsCount = SCENARIOS.length * 2 + 2 + 4 * plan.rounds;
  const estimate = rowsCount * (plan.warmupS + plan.rounds * plan.roundS) + 20 + (load ? 75 : 0);
  console.log(
    `Vitrine bench: ${plan.connections} connections, ${plan.warmupS} s warm-up, best of ${plan.rounds} × ${plan.roundS} s${quick ? ' (--quick: a smoke test, not a measure)' : ''}; ` +
      (HAS_TASKSET
        ? `server on core ${SERVER_CORE}, load from core ${LOAD_CORE}`
        : 'taskset not found: server and load share the cores') +
      `; Node ${process.version}; Host ${BENCH_HOST}, no compression requested; about ${Math.ceil(estimate / 60)} min`,
  );

  const servers = {
    uncached: await startNode('uncached', [SERVER_ENTRY], { HTML_CACHE: 'off' }),
    cached: await startNode('cached', [SERVER_ENTRY], { HTML_CACHE: 'on' }),
    baseline: await startNode('baseline', ['--import', 'tsx', 'bench/baseline-server.ts'], {}),
  };
  let rows: Row[];
  try {
    rows = await pageRows(servers);
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
  const extra = [runtimeLine(), ...(await previewLines()), ...(await subscriptionLines()), ...(await metricsLines())];
  const runtimes = formatRuntimeRows(runtimeRows(CLIENT_DIR, pageHtml));

  console.log('');
  console.log(table(rows));
  console.log('');
  for (const line of runtimes) console.log(line);
  console.log('');
  for (const line of extra) console.log(line);
  for (const line of productLines(rows)) console.log(line);
  // A quick pass only proves every row runs: on a loaded CI machine the server may shed load (503 by
  // design, docs/decisions/0125-bench-in-turns-with-budgets.md), which is noted, not failed.
  const failed = rows.filter((row) => row.note && !(quick && row.shedOnly));
  if (failed.length > 0) {
    console.log(`${failed.length} row(s) failed: ${failed.map((row) => row.name).join('; ')}`);
    process.exitCode = 1;
  }

  console.log('');
  unpinSelf();
  for (const line of await visitorLines(ROOT, { quick })) console.log(line);

  if (load) {
    const { runLoadTest } = await import('./load.ts');
    const ok = await runLoadTest();
    if (!ok) process.exitCode = 1;
  }
}

main().then(
  () => process.exit(),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
