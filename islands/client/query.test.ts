import { mock } from 'node:test';
import t from 'tap';
import { until } from '../../test/until.ts';
import type { GraphQLResult } from './http.ts';
import { Query, type QueryState } from './query.ts';

/** The state machine with a scripted fetcher: each call waits until the test answers it. */
function scripted<T>() {
  const calls: { variables: { page: number }; signal: AbortSignal; answer: (r: GraphQLResult<T> | Error) => void }[] =
    [];
  const fetcher = (variables: { page: number }, signal: AbortSignal) =>
    new Promise<GraphQLResult<T>>((resolve, reject) => {
      calls.push({ variables, signal, answer: (r) => (r instanceof Error ? reject(r) : resolve(r)) });
    });
  return { calls, fetcher };
}

function track<T>(query: Query<T, { page: number }>) {
  const states: QueryState[] = [];
  query.subscribe(() => {
    const { state } = query.snapshot();
    if (states.at(-1) !== state) states.push(state);
  });
  return states;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

t.test('loading, then ready with the data; the initial data shows meanwhile', async (t) => {
  const { calls, fetcher } = scripted<string[]>();
  const query = new Query(fetcher, { page: 1 }, ['server']);
  const states = track(query);
  t.match(query.snapshot(), { state: 'loading', data: ['server'] }, 'before start: the server render');
  const done = query.start();
  calls[0]?.answer({ data: ['a'] });
  await done;
  t.same(states, ['loading', 'ready']);
  t.match(query.snapshot(), { state: 'ready', data: ['a'], error: undefined });
});

t.test('setVariables, refetch, fetchMore and poll each show their own state, then ready', async (t) => {
  const { calls, fetcher } = scripted<string[]>();
  const query = new Query(fetcher, { page: 1 });
  const states = track(query);
  let pending = query.start();
  calls[0]?.answer({ data: ['a'] });
  await pending;

  pending = query.setVariables({ page: 2 });
  t.match(query.snapshot(), { state: 'setVariables', variables: { page: 2 }, data: ['a'] }, 'old data stays meanwhile');
  calls[1]?.answer({ data: ['b'] });
  await pending;

  pending = query.refetch();
  t.equal(query.snapshot().state, 'refetch');
  t.same(calls[2]?.variables, { page: 2 });
  calls[2]?.answer({ data: ['b2'] });
  await pending;

  pending = query.fetchMore({ page: 3 }, (prev, more) => [...(prev ?? []), ...more]);
  t.equal(query.snapshot().state, 'fetchMore');
  calls[3]?.answer({ data: ['c'] });
  await pending;
  t.match(query.snapshot(), { data: ['b2', 'c'], variables: { page: 2 } }, 'merged; the variables stay');

  query.startPolling(5);
  await until(() => calls.length >= 5, { what: 'the first poll' });
  query.stopPolling();
  t.equal(query.snapshot().state, 'poll');
  calls[4]?.answer({ data: ['p'] });
  await tick();
  t.same(states, [
    'loading',
    'ready',
    'setVariables',
    'ready',
    'refetch',
    'ready',
    'fetchMore',
    'ready',
    'poll',
    'ready',
  ]);
});

t.test('error policy all: data with errors is ready, errors without data is error', async (t) => {
  const { calls, fetcher } = scripted<{ a: number | null }>();
  const query = new Query(fetcher, { page: 1 });
  let pending = query.start();
  calls[0]?.answer({ data: { a: null }, errors: [{ message: 'partial' }] });
  await pending;
  t.match(query.snapshot(), { state: 'ready', data: { a: null }, errors: [{ message: 'partial' }] });
  pending = query.refetch();
  calls[1]?.answer({ data: null, errors: [{ message: 'nothing' }] });
  await pending;
  t.match(query.snapshot(), { state: 'error', error: { message: 'nothing' }, data: { a: null } }, 'last data kept');
  pending = query.refetch();
  calls[2]?.answer(new Error('network down'));
  await pending;
  t.match(query.snapshot(), { state: 'error', error: { message: 'network down' } });
  pending = query.refetch();
  calls[3]?.answer({ data: { a: 1 } });
  await pending;
  t.match(query.snapshot(), { state: 'ready', error: undefined, errors: undefined }, 'recovers');
});

t.test('the newest request wins: an older answer arriving late is dropped', async (t) => {
  const { calls, fetcher } = scripted<string>();
  const query = new Query(fetcher, { page: 1 });
  const first = query.start();
  const second = query.setVariables({ page: 2 });
  t.ok(calls[0]?.signal.aborted, 'the first request is aborted');
  calls[1]?.answer({ data: 'new' });
  await second;
  calls[0]?.answer({ data: 'old' });
  await first;
  t.equal(query.snapshot().data, 'new');
});

t.test('a poll never cuts a request short, and stop() drops the answer in flight', async (t) => {
  // The poll's timers on a clock the test moves.
  mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  t.teardown(() => mock.timers.reset());
  const { calls, fetcher } = scripted<string>();
  const query = new Query(fetcher, { page: 1 });
  const pending = query.start();
  query.startPolling(2);
  mock.timers.tick(20);
  t.equal(calls.length, 1, 'no poll while the first request runs');
  query.stop();
  t.ok(calls[0]?.signal.aborted);
  calls[0]?.answer({ data: 'late' });
  await pending;
  mock.timers.tick(10);
  t.equal(calls.length, 1, 'polling stopped');
  t.equal(query.snapshot().state, 'loading', 'nothing changes after stop');
});
