import { Window } from 'happy-dom';
import t from 'tap';
import { flush } from '../test/until.ts';
import { BUILD_CHECK_INTERVAL_MS, showUpdateNotice, watchBuild } from './build-update.ts';
import type { RuntimeData } from './runtime-data.ts';

/** Hourly checks, a check when the tab returns after that long, and detection of a newer build. */
const window = new Window({ url: 'https://www.halden.co.uk/' });
(globalThis as Record<string, unknown>).document = window.document;
const data: RuntimeData = {
  build: { id: 'aaa', timestamp: 1 },
  messages: { updateAvailable: 'New version', reload: 'Reload' },
};

function fakeFetch(latestId: string, metaOk = true) {
  const calls: string[] = [];
  const fn = (async (url: string) => {
    calls.push(url);
    const body = url.startsWith('/builds/latest.json') ? { id: latestId, timestamp: 2 } : {};
    return { ok: url.startsWith('/builds/meta/') ? metaOk : true, status: metaOk ? 200 : 500, json: async () => body };
  }) as unknown as typeof fetch;
  return { fn, calls };
}

const setVisibility = (state: 'visible' | 'hidden') => {
  Object.defineProperty(window.document, 'visibilityState', { value: state, configurable: true });
  window.document.dispatchEvent(new window.Event('visibilitychange'));
};

t.test('returning to the tab checks only after the interval; a new id is detected once', async (t) => {
  let clock = 0;
  const { fn, calls } = fakeFetch('bbb');
  const updates: string[] = [];
  const stop = watchBuild({ data, fetch: fn, now: () => clock, onUpdate: (id) => updates.push(id) });
  t.teardown(stop);
  clock = BUILD_CHECK_INTERVAL_MS - 1;
  setVisibility('visible');
  await flush();
  t.same(calls, [], 'too early: no request');
  clock = BUILD_CHECK_INTERVAL_MS;
  setVisibility('visible');
  await flush();
  t.equal(calls[0], `/builds/latest.json?${BUILD_CHECK_INTERVAL_MS}`, 'latest.json with a timestamp query');
  t.equal(calls[1], '/builds/meta/bbb.json', 'the new build’s route-rules manifest');
  t.same(updates, ['bbb']);
  t.equal(window.document.documentElement.dataset.buildStale, 'bbb');
});

t.test('the same build id is no update; a failing manifest fetch is logged', async (t) => {
  let clock = 0;
  const same = fakeFetch('aaa');
  const updates: string[] = [];
  const stop = watchBuild({ data, fetch: same.fn, now: () => clock, onUpdate: (id) => updates.push(id) });
  clock = BUILD_CHECK_INTERVAL_MS;
  setVisibility('visible');
  await flush();
  stop();
  t.same(updates, []);
  const logged: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => logged.push(args[0]);
  t.teardown(() => {
    console.error = original;
  });
  const failing = fakeFetch('ccc', false);
  const stop2 = watchBuild({ data, fetch: failing.fn, now: () => clock });
  clock += BUILD_CHECK_INTERVAL_MS;
  setVisibility('visible');
  await flush();
  stop2();
  t.match(String(logged[0]), /Route-rules manifest fetch failed/);
});

t.test('the notice is translated text with a reload button, shown once', async (t) => {
  showUpdateNotice(data);
  showUpdateNotice(data);
  const notices = window.document.querySelectorAll('#vitrine-build-notice');
  t.equal(notices.length, 1);
  t.match(notices[0]?.textContent ?? '', 'New version');
  t.equal(notices[0]?.querySelector('button')?.textContent, 'Reload');
});
