import t from 'tap';
import { belowFloor, FLOOR, type Summary } from './coverage-floor.ts';

const summary = (pct: Partial<Record<keyof typeof FLOOR, number>>): Summary => ({
  total: Object.fromEntries(
    (Object.keys(FLOOR) as (keyof typeof FLOOR)[]).map((metric) => [
      metric,
      { pct: pct[metric] ?? 100, covered: 0, total: 0 },
    ]),
  ) as Summary['total'],
});

t.test('at or above every floor passes', async (t) => {
  t.same(belowFloor(summary({})), []);
  t.same(belowFloor(summary({ ...FLOOR })), [], 'the floor itself is enough');
});

t.test('each metric under its floor is named with its figure', async (t) => {
  t.same(belowFloor(summary({ branches: 80.5, lines: 94.9 })), [
    'lines 94.9% is under the 95% floor',
    'branches 80.5% is under the 88% floor',
  ]);
});
