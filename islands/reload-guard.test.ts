import t from 'tap';
import { RELOAD_GUARD_TTL_MS, reloadOnce } from './reload-guard.ts';

/** One full reload to the requested path, never a loop within 10 s. */
function memoryStorage() {
  const data = new Map<string, string>();
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
  } as unknown as Storage;
}

t.test('a failing chunk reloads once, then the guard stops a loop until the ttl passes', async (t) => {
  const storage = memoryStorage();
  const reloads: string[] = [];
  const reload = (to: string) => reloads.push(to);
  t.equal(reloadOnce('/de/cs/x-1', { storage, now: 1000, reload }), true);
  t.equal(
    reloadOnce('/de/cs/x-1', { storage, now: 1000 + RELOAD_GUARD_TTL_MS - 1, reload }),
    false,
    'no second reload inside 10 s',
  );
  t.equal(
    reloadOnce('/de/cs/x-1', { storage, now: 1000 + RELOAD_GUARD_TTL_MS + 1, reload }),
    true,
    'allowed again after 10 s',
  );
  t.same(reloads, ['/de/cs/x-1', '/de/cs/x-1']);
});

t.test('another path is not blocked by the guard; unavailable storage never reloads', async (t) => {
  const storage = memoryStorage();
  const reloads: string[] = [];
  reloadOnce('/a', { storage, now: 0, reload: (to) => reloads.push(to) });
  t.equal(reloadOnce('/b', { storage, now: 1, reload: (to) => reloads.push(to) }), true);
  const broken = {
    getItem() {
      throw new Error('denied');
    },
  } as unknown as Storage;
  t.equal(reloadOnce('/c', { storage: broken, now: 2, reload: (to) => reloads.push(to) }), false);
  t.same(reloads, ['/a', '/b']);
});
