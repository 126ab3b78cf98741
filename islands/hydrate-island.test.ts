import { Window } from 'happy-dom';
import { createElement, useEffect } from 'react';
import { renderToString } from 'react-dom/server';
import t from 'tap';
import { until } from '../test/until.ts';

/**
 * Hydration yields (decision 0183): an island whose render takes longer than React's slice is
 * hydrated over several tasks, so input and the page's own work get turns in between. A plain
 * hydrateRoot renders the whole island in one task. React DOM only: preact/compat hydrates at once.
 */
const window = new Window({ url: 'https://www.halden.co.uk/' });
for (const name of ['window', 'document', 'HTMLElement', 'Node', 'navigator']) {
  Object.defineProperty(globalThis, name, {
    value: name === 'window' ? window : (window as unknown as Record<string, unknown>)[name],
    configurable: true,
    writable: true,
  });
}
const { hydrateIsland } = await import('./hydrate-island.ts');

/** Longer than the scheduler's slice (5 ms), so a time-sliced render yields after each item. */
const ITEM_RENDER_MS = 8;
const ITEMS = 5;
const log: string[] = [];
let committed = false;

function Item({ n }: { n: number }) {
  const until = performance.now() + ITEM_RENDER_MS;
  while (performance.now() < until) {
    // a slow component, as a large island is on a slow phone
  }
  log.push(`render ${n}`);
  return createElement('li', null, `item ${n}`);
}

function List() {
  useEffect(() => {
    committed = true;
  }, []);
  return createElement(
    'ul',
    null,
    Array.from({ length: ITEMS }, (_, n) => createElement(Item, { key: n, n })),
  );
}

t.test('an island larger than a slice hydrates over several tasks', async (t) => {
  window.document.body.innerHTML = `<vitrine-island>${renderToString(createElement(List))}</vitrine-island>`;
  log.length = 0;
  const el = window.document.querySelector('vitrine-island') as unknown as HTMLElement;
  const root = hydrateIsland(el, List, {});
  t.teardown(() => root.unmount());
  // A task of our own after each of React's: if React yields, one lands between two renders.
  let ticking = true;
  const tick = () => {
    if (!ticking) return;
    log.push('task');
    setImmediate(tick);
  };
  setImmediate(tick);
  await until(() => committed, { what: 'the hydration to commit' });
  ticking = false;
  const renders = log.flatMap((e, i) => (e.startsWith('render') ? [i] : []));
  const between = log.slice(renders[0], renders.at(-1)).filter((e) => e === 'task').length;
  const order = log.slice(0, (renders.at(-1) ?? 0) + 1).join(', ');
  t.ok(between > 0, `other tasks ran between the island's first and last render (${order})`);
  t.equal(el.querySelectorAll('li').length, ITEMS, 'the markup is kept');
});
