import t, { type Test } from 'tap';
import { createSubscribers } from './subscribers.ts';

/** onEntryChange subscribers: ids, removal by id or callback, and the spec's warnings. */

function warnings(t: Test): string[] {
  const seen: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => seen.push(args.join(' '));
  t.teardown(() => {
    console.warn = original;
  });
  return seen;
}

t.test('subscribers get v4 UUIDs and run in registration order, one failure not stopping the rest', async (t) => {
  const subscribers = createSubscribers(crypto);
  const calls: string[] = [];
  const a = subscribers.add(() => calls.push('a'));
  subscribers.add(() => {
    throw new Error('broken subscriber');
  });
  subscribers.add(() => calls.push('c'));
  t.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  const original = console.error;
  console.error = () => {};
  subscribers.run();
  console.error = original;
  t.same(calls, ['a', 'c']);
});

t.test('ids without randomUUID (insecure contexts) are v4 UUIDs too', async (t) => {
  const subscribers = createSubscribers({ getRandomValues: crypto.getRandomValues.bind(crypto) } as Crypto);
  t.match(
    subscribers.add(() => {}),
    /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  );
});

t.test('removal by id or by callback; unknown ones warn with the spec texts', async (t) => {
  const seen = warnings(t);
  const subscribers = createSubscribers(crypto);
  const callback = () => {};
  const id = subscribers.add(() => {});
  subscribers.add(callback);
  subscribers.add(callback);
  subscribers.remove(id);
  subscribers.remove(callback);
  t.equal(subscribers.entries.size, 0, 'every registration of the callback goes');
  subscribers.remove(id);
  subscribers.remove(callback);
  t.same(seen, [
    'Live_Preview_SDK: No subscriber found with the given id.',
    'Live_Preview_SDK: No subscriber found with the given callback.',
  ]);
});
