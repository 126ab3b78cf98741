import { mock } from 'node:test';
import t, { type Test } from 'tap';
import { throttle } from './throttle.ts';

/** A 60 ms throttle recording its runs, on a clock the test moves with `wait`. */
function throttled(t: Test) {
  mock.timers.enable({ apis: ['setTimeout'] });
  t.teardown(() => mock.timers.reset());
  const runs: string[] = [];
  const sync = throttle((text: string) => runs.push(text), 60);
  return { runs, sync, wait: (ms: number) => mock.timers.tick(ms) };
}

t.test('sync runs at once, then at most once per window with the latest value', async (t) => {
  const { runs, sync, wait } = throttled(t);
  sync('a');
  sync('ab');
  sync('abc');
  t.same(runs, ['a'], 'leading call only');
  wait(90);
  t.same(runs, ['a', 'abc'], 'trailing call with the latest text');
  wait(90);
  t.same(runs, ['a', 'abc'], 'nothing more without input');
});

t.test('flush sends the pending value now; cancel drops it', async (t) => {
  const { runs, sync, wait } = throttled(t);
  sync('a');
  sync('b');
  sync.flush();
  t.same(runs, ['a', 'b']);
  sync('c');
  sync('d');
  sync.cancel();
  wait(90);
  t.same(runs, ['a', 'b', 'c']);
});
