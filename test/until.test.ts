import t from 'tap';
import { until } from './until.ts';

t.test('resolves to the first truthy value the probe returns', async (t) => {
  let calls = 0;
  t.equal(await until(() => ++calls >= 3 && `after ${calls}`, { every: 1 }), 'after 3');
});

t.test('rejects after the timeout, naming what it waited for and the last value', async (t) => {
  await t.rejects(
    until(() => 0, { what: 'the refresh', timeout: 20, every: 5 }),
    {
      message: /waiting for the refresh \(last: 0\)/,
    },
  );
});

t.test('async probes are awaited', async (t) => {
  let n = 0;
  t.equal(await until(async () => (++n === 2 ? 'done' : ''), { every: 1 }), 'done');
});
