import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The unit suite's coverage floor, read from the summary tap writes after a run
 * (.tap/report/coverage-summary.json). A little under what the suite covers: a change that drops
 * tested code out of the tests fails here, with the figures.
 */
export const FLOOR = { lines: 95, statements: 95, branches: 88, functions: 92 } as const;

type Metric = keyof typeof FLOOR;
export type Summary = { total: Record<Metric, { pct: number; covered: number; total: number }> };

/** The metrics under their floor, each as a sentence. */
export function belowFloor(summary: Summary, floor: Record<Metric, number> = FLOOR): string[] {
  return (Object.keys(floor) as Metric[])
    .filter((metric) => summary.total[metric].pct < floor[metric])
    .map((metric) => `${metric} ${summary.total[metric].pct}% is under the ${floor[metric]}% floor`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = process.argv[2] ?? '.tap/report/coverage-summary.json';
  const summary = JSON.parse(readFileSync(file, 'utf8')) as Summary;
  const figures = (Object.keys(FLOOR) as Metric[]).map((metric) => `${metric} ${summary.total[metric].pct}%`);
  console.log(`coverage: ${figures.join(', ')} (floor ${Object.values(FLOOR).join('/')})`);
  const below = belowFloor(summary);
  for (const line of below) console.error(line);
  if (below.length > 0) process.exitCode = 1;
}
