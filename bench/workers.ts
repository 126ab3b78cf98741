/**
 * `npm run bench -- --workers`: the product page, cached and uncached, served by WORKERS=1 and by
 * WORKERS=2. The server may use both cores here (the main bench pins it to one), and the load
 * generator runs on one of them too, so two workers compete with autocannon for a core: the ratio
 * is a floor of what two workers give on a machine where the load comes from elsewhere.
 */
import { BENCH_HOST, PRODUCT_PATH } from './config.ts';
import { measure, type Round, startNode } from './lib.ts';

const SERVER_ENTRY = 'dist/server/main.js';
const HEADERS = { host: BENCH_HOST, accept: 'text/html' };

export async function workerLines(plan: {
  connections: number;
  warmupS: number;
  roundS: number;
  rounds: number;
}): Promise<string[]> {
  const results = new Map<string, Round>();
  for (const cache of ['on', 'off'] as const) {
    for (const workers of ['1', '2']) {
      const label = `workers-${workers}-${cache}`;
      const server = await startNode(label, [SERVER_ENTRY], { WORKERS: workers, HTML_CACHE: cache }, { core: '0,1' });
      try {
        process.stderr.write(`  product page, cache ${cache}, WORKERS=${workers}…`);
        // The primary serves no pages; CPU per request is not reported here (it is the workers').
        const round = await measure(server.pid, server.port, PRODUCT_PATH, HEADERS, plan);
        process.stderr.write(` ${Math.round(round.rps)} req/s\n`);
        results.set(label, round);
      } finally {
        await server.stop();
      }
    }
  }
  const lines = [
    'WORKERS (both cores for the server; the load generator shares one of them):',
    '| product page | WORKERS | req/s | p50 ms | p99 ms | non-2xx |',
    '|---|---|---|---|---|---|',
  ];
  for (const cache of ['on', 'off'] as const) {
    for (const workers of ['1', '2']) {
      const r = results.get(`workers-${workers}-${cache}`) as Round;
      const non2xx = Object.entries(r.statuses)
        .filter(([code]) => !code.startsWith('2'))
        .reduce((sum, [, n]) => sum + n, r.errors + r.timeouts);
      lines.push(
        `| ${cache === 'on' ? 'cached' : 'uncached'} | ${workers} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${non2xx} |`,
      );
    }
  }
  for (const cache of ['on', 'off'] as const) {
    const one = results.get(`workers-1-${cache}`)?.rps ?? 0;
    const two = results.get(`workers-2-${cache}`)?.rps ?? 0;
    lines.push(
      `${cache === 'on' ? 'cached' : 'uncached'} product page: WORKERS=2 serves ${one ? (two / one).toFixed(2) : '?'}× WORKERS=1`,
    );
  }
  return lines;
}
