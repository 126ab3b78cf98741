import t from 'tap';
import { throttle } from './throttle.ts';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

t.test('sync runs at once, then at most once per window with the latest value', async (t) => {
  const runs: string[] = [];
  const sync = throttle((text: string) => runs.push(text), 60);
  sync('a');
  sync('ab');
  sync('abc');
  t.same(runs, ['a'], 'leading call only');
  await wait(90);
  t.same(runs, ['a', 'abc'], 'trailing call with the latest text');
  await wait(90);
  t.same(runs, ['a', 'abc'], 'nothing more without input');
});

t.test('flush sends the pending value now; cancel drops it', async (t) => {
  const runs: string[] = [];
  const sync = throttle((text: string) => runs.push(text), 60);
  sync('a');
  sync('b');
  sync.flush();
  t.same(runs, ['a', 'b']);
  sync('c');
  sync('d');
  sync.cancel();
  await wait(90);
  t.same(runs, ['a', 'b', 'c']);
});
