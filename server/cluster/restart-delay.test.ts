import t from 'tap';
import { FIRST_DELAY_MS, MAX_DELAY_MS, QUICK_DEATH_MS, restartDelay } from './restart-delay.ts';

t.test('a worker that ran a while is replaced at once; quick deaths back off, doubling to a ceiling', async (t) => {
  const table: [lived: number, previous: number, expected: number][] = [
    [QUICK_DEATH_MS, 0, 0],
    [60_000, 8_000, 0],
    [100, 0, FIRST_DELAY_MS],
    [100, FIRST_DELAY_MS, FIRST_DELAY_MS * 2],
    [QUICK_DEATH_MS - 1, 4_000, 8_000],
    [100, MAX_DELAY_MS, MAX_DELAY_MS],
    [100, 20_000, MAX_DELAY_MS],
  ];
  for (const [lived, previous, expected] of table)
    t.equal(restartDelay(lived, previous), expected, `lived ${lived} ms after a ${previous} ms wait`);
});

t.test('WORKERS: unset is one process, auto one per core, a number that many', async (t) => {
  const { workerCount } = await import('./worker-count.ts');
  const table: [string | undefined, number, number][] = [
    [undefined, 8, 1],
    ['', 8, 1],
    ['auto', 8, 8],
    ['auto', 0, 1],
    ['1', 8, 1],
    ['3', 2, 3],
  ];
  for (const [setting, cores, expected] of table)
    t.equal(workerCount(setting, cores), expected, `${setting} on ${cores}`);
});
