/**
 * Where the server's time goes: starts the production server with `--cpu-prof` (pinned like the
 * bench), loads one page for a while, stops it and prints the functions with the most self time.
 *
 *   npx tsx bench/profile.ts [--cached | --floor] [--seconds N] [--top N] [path]
 *
 * Uncached (HTML_CACHE=off) and the product page unless told otherwise; `--floor` profiles the
 * renderToString floor of bench/baseline-server.ts instead.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { BENCH_HOST, PRODUCT_PATH } from './config.ts';
import { pinSelf, startNode } from './lib.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface Hotspot {
  name: string;
  where: string;
  selfMs: number;
  share: number;
}

/** The samples from `fromUs` on (the loaded run, without start-up and warm-up). */
export function from(profile: CpuProfile, fromUs: number): CpuProfile {
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at < fromUs) return;
    samples.push(id);
    timeDeltas.push(profile.timeDeltas[i] ?? 0);
  });
  return { ...profile, samples, timeDeltas };
}

/**
 * The samples in which the thread was working: on a shared machine the load generator is starved
 * now and then and the server waits idle, so shares of the whole run differ from run to run while
 * shares of the working time compare. Returns that profile and the idle share of the whole.
 */
export function busy(profile: CpuProfile): { profile: CpuProfile; idle: number } {
  const idleIds = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  let idle = 0;
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    total += delta;
    if (idleIds.has(id)) {
      idle += delta;
      return;
    }
    samples.push(id);
    timeDeltas.push(delta);
  });
  return { profile: { ...profile, samples, timeDeltas }, idle: total ? idle / total : 0 };
}

/** Self time per function (summed over every node of the same function and place). */
export function hotspots(profile: CpuProfile, top = 25): Hotspot[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, { name: string; where: string; us: number }>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const delta = profile.timeDeltas[i] ?? 0;
    total += delta;
    if (!node) return;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url
      ? `${url.replace(/^file:\/\/.*?\/(node_modules|dist|work\/main)\//, '$1/')}:${lineNumber + 1}`
      : '';
    const key = `${functionName}@${where}`;
    const entry = self.get(key) ?? { name: functionName || '(anonymous)', where, us: 0 };
    entry.us += delta;
    self.set(key, entry);
  });
  return [...self.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, top)
    .map((e) => ({ name: e.name, where: e.where, selfMs: e.us / 1000, share: total ? e.us / total : 0 }));
}

/** Time spent in each named function and everything it called (each sample counted once per name). */
export function inclusive(profile: CpuProfile, names: string[]): [string, number][] {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const wanted = new Set(names);
  const sums = new Map<string, number>(names.map((n) => [n, 0]));
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    total += delta;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = byId.get(at)?.callFrame.functionName ?? '';
      if (wanted.has(name) && !seen.has(name)) {
        seen.add(name);
        sums.set(name, (sums.get(name) ?? 0) + delta);
      }
    }
  });
  return names.map((n) => [n, total ? (sums.get(n) ?? 0) / total : 0]);
}

/** Self time per package or source area: node internals, react-dom, fastify, our own code… */
export function byArea(profile: CpuProfile): [string, number][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const areas = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const delta = profile.timeDeltas[i] ?? 0;
    total += delta;
    const url = node?.callFrame.url ?? '';
    const name = node?.callFrame.functionName ?? '';
    let area: string;
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
    if (pkg) area = pkg[1] as string;
    else if (url.startsWith('node:')) area = 'node internals';
    else if (url.includes('/dist/server/')) area = 'vitrine (dist/server)';
    else if (url.includes('/work/main/') || url.startsWith('file:')) area = 'vitrine (sources)';
    else if (!url) area = name.startsWith('(') ? name : 'native/GC';
    else area = 'other';
    areas.set(area, (areas.get(area) ?? 0) + delta);
  });
  return [...areas.entries()].sort((a, b) => b[1] - a[1]).map(([area, us]) => [area, total ? us / total : 0]);
}

export interface YoungCollections {
  count: number;
  meanPauseMs: number;
  /** Bytes moved to the old generation per collection: what outlived the requests that made it. */
  promotedKb: number;
  /** Bytes that outlived each collection (copied or promoted). */
  survivedKb: number;
  /** The largest young generation V8 grew to. */
  youngMb: number;
}

/**
 * The young-generation collections in a log of V8's `--trace-gc-nvp` lines (other lines ignored).
 * Bytes, unlike pause times, do not move with the machine's load: megabytes promoted per collection
 * and a young generation grown past 16 MB are how renders outliving their requests show (decision 0209).
 */
export function youngCollections(log: string): YoungCollections {
  const field = (line: string, name: string) => Number(new RegExp(`\\b${name}=([\\d.]+)`).exec(line)?.[1] ?? 0);
  const lines = log.split('\n').filter((line) => / gc=s /.test(line));
  const count = lines.length;
  const sum = (name: string) => lines.reduce((total, line) => total + field(line, name), 0);
  return {
    count,
    meanPauseMs: count ? sum('pause') / count : 0,
    promotedKb: count ? sum('promoted') / count / 1024 : 0,
    survivedKb: count ? sum('new_space_survived') / count / 1024 : 0,
    youngMb: Math.max(0, ...lines.map((line) => field(line, 'new_space_capacity'))) / 1024 / 1024,
  };
}

/** The steps of a page request, outermost first. */
const INCLUSIVE = [
  'runPreParsing',
  'hookRunner',
  'onRequest',
  'decideRoute',
  'renderPage',
  'buildPage',
  'pageLinks',
  'loadTemplate',
  'assemblePage',
  'pageElement',
  'streamDocument',
  'performWork',
  'flushCompletedQueues',
  'sendRendered',
  'sendError',
  'onSendHook',
  'onSendEnd',
  'writev',
  '(garbage collector)',
];

async function main(): Promise<void> {
  process.chdir(fileURLToPath(new URL('..', import.meta.url)));
  const args = process.argv.slice(2);
  const cached = args.includes('--cached');
  const seconds = Number(args[args.indexOf('--seconds') + 1]) || 10;
  const top = Number(args[args.indexOf('--top') + 1]) || 25;
  const path = args.find((a) => a.startsWith('/')) ?? PRODUCT_PATH;
  pinSelf();
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-prof-'));
  const floor = args.includes('--floor');
  const entry = floor ? ['--import', 'tsx', 'bench/baseline-server.ts'] : ['dist/server/main.js'];
  const probe = join(dir, 'probe.json');
  const server = await startNode(
    'profile',
    ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--trace-gc-nvp', '--import', './bench/probe.ts', ...entry],
    { HTML_CACHE: cached ? 'on' : 'off', PROBE_OUT: probe },
  );
  const url = `http://127.0.0.1:${server.port}${floor ? '/floor' : path}`;
  const headers = { host: BENCH_HOST, accept: 'text/html' };
  await autocannon({ url, headers, connections: 32, duration: 2 });
  // GC and event-loop delay count from here (bench/probe.ts); the CPU profile covers the whole run.
  process.kill(server.pid, 'SIGWINCH');
  const logFrom = readFileSync(server.log, 'utf8').length;
  const result = await autocannon({ url, headers, connections: 32, duration: seconds });
  const young = youngCollections(readFileSync(server.log, 'utf8').slice(logFrom));
  await server.stop();
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile written in ${dir}`);
  const whole = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
  const probed = existsSync(probe)
    ? (JSON.parse(readFileSync(probe, 'utf8')) as {
        wallMs: number;
        fromUs: number;
        gc: Record<string, { count: number; ms: number; maxMs: number }>;
        eventLoopDelayMs: Record<string, number>;
      })
    : undefined;
  const { profile, idle } = busy(probed ? from(whole, probed.fromUs) : whole);
  console.log(
    `${floor ? 'floor' : cached ? 'cached' : 'uncached'} ${path}: ${Math.round(result.requests.average)} req/s, ` +
      `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms under the profiler (${join(dir, file)})`,
  );
  if (probed) {
    const { wallMs, gc, eventLoopDelayMs } = probed;
    const total = Object.values(gc).reduce((sum, k) => sum + k.ms, 0);
    const kinds = Object.entries(gc).map(
      ([kind, k]) => `${kind} ${k.count}× ${k.ms.toFixed(0)} ms (longest ${k.maxMs.toFixed(1)})`,
    );
    console.log(`GC pauses: ${((total / wallMs) * 100).toFixed(1)}% of the loaded run; ${kinds.join(', ')}`);
    const d = eventLoopDelayMs;
    console.log(`event-loop delay: mean ${d.mean} ms, p50 ${d.p50}, p99 ${d.p99}, max ${d.max}`);
  }
  console.log(
    `young collections (--trace-gc-nvp): ${young.count}, mean pause ${young.meanPauseMs.toFixed(1)} ms, ` +
      `${young.promotedKb.toFixed(0)} KB promoted and ${young.survivedKb.toFixed(0)} KB surviving per collection, ` +
      `young generation up to ${young.youngMb.toFixed(0)} MB`,
  );
  console.log(`idle ${(idle * 100).toFixed(1)}% of the loaded run; shares below are of the working time`);
  console.log('self time by area:');
  for (const [area, share] of byArea(profile).slice(0, 12))
    console.log(`  ${(share * 100).toFixed(1).padStart(5)}%  ${area}`);
  console.log('inclusive time of the page pipeline:');
  for (const [name, share] of inclusive(profile, INCLUSIVE)) {
    if (share > 0) console.log(`  ${(share * 100).toFixed(1).padStart(5)}%  ${name}`);
  }
  console.log('top functions by self time:');
  for (const h of hotspots(profile, top)) {
    console.log(`  ${(h.share * 100).toFixed(1).padStart(5)}%  ${h.name}  ${h.where}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then(
    () => process.exit(),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
