import { mock } from 'node:test';
import t from 'tap';
import { debounce } from './debounce.ts';

/** The layer's debounces (spec 9) run once, `ms` after the last call. Fake timers. */

t.beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
t.afterEach(() => mock.timers.reset());

t.test('runs once, ms after the last call, with the last arguments', async (t) => {
  const runs: number[] = [];
  const later = debounce((n: number) => runs.push(n), 200);
  later(1);
  mock.timers.tick(150);
  later(2);
  mock.timers.tick(199);
  t.same(runs, [], 'each call restarts the wait');
  mock.timers.tick(1);
  t.same(runs, [2]);
  mock.timers.tick(1000);
  t.same(runs, [2], 'once');
});

t.test('cancel drops the pending run', async (t) => {
  const runs: number[] = [];
  const later = debounce(() => runs.push(1), 100);
  later();
  later.cancel();
  mock.timers.tick(500);
  t.same(runs, []);
  later();
  mock.timers.tick(100);
  t.same(runs, [1], 'usable again after a cancel');
});
