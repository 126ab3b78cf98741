/**
 * The "visitor" table (contract section 7): what a phone gets. Lighthouse mobile with simulated
 * throttling on the home and the product page, best of three, for React islands (the build in
 * dist/client), the Preact build (a browser-only build into a temporary folder, served by the same
 * server code) and islands switched off (the React page with every script request blocked: the
 * same HTML without JavaScript, the floor). Each figure is its best of three. Runs go in turns (every variant once, then again), so
 * a busy machine weighs on all alike. `npm run bench -- --visitor` runs this part alone.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type RunnerResult } from 'lighthouse';
import { LanternLargestContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-largest-contentful-paint.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../test/e2e/browser.ts';
import { PRODUCT_PATH } from './config.ts';
import { get, type Started, startNode } from './lib.ts';

const PAGES = [
  { name: 'home', path: '/' },
  { name: 'product page', path: PRODUCT_PATH },
] as const;

export type Variant = 'React islands' | 'Preact build' | 'islands off (no JavaScript)';
const VARIANTS: readonly Variant[] = ['React islands', 'Preact build', 'islands off (no JavaScript)'];

export interface VisitorRun {
  lcp: number;
  tbt: number;
  cls: number;
  jsBytes: number;
  imageBytes: number;
  /** Script bytes in Lantern's LCP graphs: what Lighthouse counted against the largest paint. */
  lcpScriptBytes: number;
}

export interface VisitorRow extends VisitorRun {
  variant: Variant;
  page: string;
}

/** The figures of one Lighthouse result (metrics and bytes per resource type), or why it has none. */
export function runOf(lhr: {
  audits: Record<string, { numericValue?: number; details?: unknown; errorMessage?: string }>;
}): Omit<VisitorRun, 'lcpScriptBytes'> | { error: string } {
  const missing = METRICS.find((id) => lhr.audits[id]?.numericValue === undefined);
  if (missing) return { error: `no ${missing}: ${lhr.audits[missing]?.errorMessage ?? 'not measured'}` };
  const metric = (id: string) => lhr.audits[id]?.numericValue as number;
  const items =
    (lhr.audits['network-requests']?.details as { items?: { resourceType?: string; transferSize?: number }[] })
      ?.items ?? [];
  const bytes = (type: string) =>
    items.filter((i) => i.resourceType === type).reduce((sum, i) => sum + (i.transferSize ?? 0), 0);
  return {
    lcp: metric('largest-contentful-paint'),
    tbt: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
    jsBytes: bytes('Script'),
    imageBytes: bytes('Image'),
  };
}

interface GraphNode {
  type: string;
  request?: { url: string; resourceType?: string; transferSize?: number };
}

/**
 * Script bytes in Lantern's optimistic or pessimistic LCP graph (decision 0182): unlike the
 * times, which graph a request falls in does not depend on how busy the machine is.
 */
export function scriptBytesInGraphs(graphs: Iterable<GraphNode>[]): number {
  const scripts = new Map<string, number>();
  for (const nodes of graphs)
    for (const node of nodes)
      if (node.type === 'network' && node.request?.resourceType === 'Script')
        scripts.set(node.request.url, node.request.transferSize ?? 0);
  return [...scripts.values()].reduce((sum, bytes) => sum + bytes, 0);
}

/** Lighthouse's own LCP simulation, asked again for its graphs (the audit keeps only the time). */
async function lcpScriptBytes(result: RunnerResult): Promise<number> {
  const { artifacts } = result;
  const settings = result.lhr.configSettings;
  const metric = await LanternLargestContentfulPaint.request(
    {
      trace: artifacts.Trace,
      devtoolsLog: artifacts.DevtoolsLog,
      gatherContext: artifacts.GatherContext,
      settings,
      URL: artifacts.URL,
      SourceMaps: artifacts.SourceMaps,
      simulator: null,
    },
    { computedCache: new Map(), settings } as never,
  );
  return scriptBytesInGraphs([
    metric.optimisticEstimate.nodeTimings.keys() as Iterable<GraphNode>,
    metric.pessimisticEstimate.nodeTimings.keys() as Iterable<GraphNode>,
  ]);
}

const METRICS = ['largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift'] as const;

/**
 * Best of the runs, each figure on its own: on a shared machine a run's CPU time is inflated by
 * whatever else runs, and Lighthouse multiplies it by four, so each figure's least disturbed run
 * is the closest to the page's own. Bytes do not vary between runs.
 */
export function bestOf(runs: readonly VisitorRun[]): VisitorRun {
  const first = runs[0];
  if (!first) throw new Error('no runs');
  const least = (pick: (run: VisitorRun) => number) => Math.min(...runs.map(pick));
  return {
    lcp: least((r) => r.lcp),
    tbt: least((r) => r.tbt),
    cls: least((r) => r.cls),
    jsBytes: first.jsBytes,
    imageBytes: first.imageBytes,
    // Whether a script ends before the paint can differ between runs: the worst run counts.
    lcpScriptBytes: Math.max(...runs.map((r) => r.lcpScriptBytes)),
  };
}

/** A server root whose dist/client is the Preact browser build: the same server code, config and content. */
function preactRoot(root: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-visitor-preact-'));
  const build = spawnSync(
    join(root, 'node_modules/.bin/vite'),
    ['build', '--outDir', join(dir, 'dist/client'), '--logLevel', 'warn'],
    { cwd: root, env: { ...process.env, ISLAND_RUNTIME: 'preact' }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (build.status !== 0) throw new Error(`the preact browser build failed (exit ${build.status})`);
  mkdirSync(join(dir, 'dist'), { recursive: true });
  symlinkSync(resolve(root, 'dist/server'), join(dir, 'dist/server'));
  for (const name of ['config', 'content', 'public', 'locales', 'node_modules'])
    symlinkSync(resolve(root, name), join(dir, name));
  return dir;
}

const WARM_UP_REQUESTS = 20;

const url = (server: Started, path: string) => `http://uk.localhost:${server.port}${path}`;

/**
 * Runs `use` with a `hold` that registers what it acquired, and releases all of it, last first, however
 * `use` ends (a warm-up answered 503, a failed start, Lighthouse throwing). A release that fails is
 * reported and the others still run. The bench's exit hook kills its servers only if the process
 * exits; an error that left a server or the browser holding the event loop kept them all running.
 */
export async function holding<T>(use: (hold: (release: () => unknown) => void) => Promise<T>): Promise<T> {
  const releases: (() => unknown)[] = [];
  try {
    return await use((release) => releases.push(release));
  } finally {
    for (const release of releases.reverse()) {
      try {
        await release();
      } catch (error) {
        process.stderr.write(`  visitor: releasing failed: ${String(error)}\n`);
      }
    }
  }
}

export async function visitorLines(root: string, options: { quick: boolean }): Promise<string[]> {
  const rounds = options.quick ? 1 : 3;
  const runs = await holding((hold) => measure(root, rounds, hold));
  const rows: VisitorRow[] = [];
  for (const page of PAGES)
    for (const variant of VARIANTS) {
      const measured = runs.get(`${variant}|${page.name}`);
      if (!measured) throw new Error(`no run of the ${page.name}, ${variant} gave figures`);
      rows.push({ variant, page: page.name, ...bestOf(measured) });
    }
  return formatVisitor(rows, rounds);
}

/** Starts the servers and the browser (each held for release) and measures every variant and page in turns. */
async function measure(
  root: string,
  rounds: number,
  hold: (release: () => unknown) => void,
): Promise<Map<string, VisitorRun[]>> {
  const preactDir = preactRoot(root);
  hold(() => rmSync(preactDir, { recursive: true, force: true }));
  const react = await startNode('visitor-react', [join(root, 'dist/server/main.js')], {});
  hold(() => react.stop());
  const preact = await startNode('visitor-preact', [join(preactDir, 'dist/server/main.js')], {}, { cwd: preactDir });
  hold(() => preact.stop());
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_ARGS });
  // An interrupted bench leaves no browser behind (lib.ts stops its servers the same way).
  const killChrome = () => chrome.process.kill('SIGKILL');
  process.once('exit', killChrome);
  hold(() => {
    process.off('exit', killChrome);
    chrome.kill();
  });
  const runs = new Map<string, VisitorRun[]>();
  // Lighthouse simulates from the server response time it saw: a cold server's first renders
  // would count against whichever row came first, so both serve every page a few times before.
  for (const server of [react, preact])
    for (const page of PAGES)
      for (let i = 0; i < WARM_UP_REQUESTS; i++) {
        const res = await get(server.port, page.path, { host: `uk.localhost:${server.port}`, accept: 'text/html' });
        if (res.status !== 200) throw new Error(`${page.path} answered ${res.status} while warming up`);
      }
  for (let round = 0; round < rounds; round++) {
    for (const variant of VARIANTS) {
      for (const page of PAGES) {
        const server = variant === 'Preact build' ? preact : react;
        const result = await lighthouse(
          url(server, page.path),
          { port: chrome.port, output: 'json', logLevel: 'error' },
          {
            extends: 'lighthouse:default',
            settings: {
              formFactor: 'mobile',
              throttlingMethod: 'simulate',
              onlyAudits: [
                'largest-contentful-paint',
                'total-blocking-time',
                'cumulative-layout-shift',
                'network-requests',
              ],
              ...(variant === 'islands off (no JavaScript)' ? { blockedUrlPatterns: ['*.js'] } : {}),
            },
          },
        );
        if (!result) throw new Error(`Lighthouse returned nothing for ${page.path}`);
        const figures = result.lhr.runtimeError ? { error: result.lhr.runtimeError.message } : runOf(result.lhr);
        const key = `${variant}|${page.name}`;
        // A run the machine disturbed past measuring (Lighthouse saw no paint, or the server shed the
        // page with a 503 under the machine's load) is reported and left out; the other runs count.
        if ('error' in figures) {
          process.stderr.write(`  visitor ${page.name}, ${variant}: ${figures.error}\n`);
          continue;
        }
        const run = { ...figures, lcpScriptBytes: await lcpScriptBytes(result) };
        runs.set(key, [...(runs.get(key) ?? []), run]);
        process.stderr.write(
          `  visitor ${page.name}, ${variant}: LCP ${Math.round(run.lcp)} ms, TBT ${Math.round(run.tbt)} ms\n`,
        );
      }
    }
  }
  return runs;
}

/** The table and the contract's ratio line. */
export function formatVisitor(rows: readonly VisitorRow[], rounds: number): string[] {
  const head = [
    `visitor (Lighthouse mobile, simulated, best of ${rounds})`,
    'LCP ms',
    'TBT ms',
    'CLS',
    'JS KB',
    'JS in LCP graph KB',
    'image KB',
  ];
  const body = rows.map((r) => [
    `${r.page}, ${r.variant}`,
    String(Math.round(r.lcp)),
    String(Math.round(r.tbt)),
    r.cls.toFixed(3),
    (r.jsBytes / 1024).toFixed(1),
    (r.lcpScriptBytes / 1024).toFixed(1),
    (r.imageBytes / 1024).toFixed(1),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((cells) => (cells[i] as string).length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ');
  const product = (variant: Variant) => rows.find((r) => r.page === 'product page' && r.variant === variant);
  const withIslands = product('React islands');
  const without = product('islands off (no JavaScript)');
  const percent = withIslands && without?.lcp ? String(Math.round((withIslands.lcp / without.lcp) * 100)) : '?';
  return [
    line(head),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...body.map(line),
    `product page LCP with React islands: ${percent}% of the page without JavaScript`,
  ];
}
