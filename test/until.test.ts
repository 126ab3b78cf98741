import { mock } from 'node:test';
import t from 'tap';
import { flush, until } from './until.ts';

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

t.test('flush lets queued promise chains and immediates run, and nothing later', async (t) => {
  const done: string[] = [];
  Promise.resolve()
    .then(() => Promise.resolve())
    .then(() => done.push('chain'));
  setImmediate(() => done.push('immediate'));
  const timer = setTimeout(() => done.push('timer'), 60_000);
  t.teardown(() => clearTimeout(timer));
  await flush();
  t.same(done, ['chain', 'immediate']);
});

t.test('until keeps polling while a test has faked the clock', async (t) => {
  mock.timers.enable({ apis: ['setTimeout', 'setInterval', 'setImmediate', 'Date'] });
  t.teardown(() => mock.timers.reset());
  let calls = 0;
  t.equal(await until(() => ++calls === 3 && 'polled', { every: 1 }), 'polled');
  await flush();
});
