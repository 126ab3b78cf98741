import { pathToFileURL } from 'node:url';
import { Window } from 'happy-dom';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import t from 'tap';
import { serializeInlineJson } from '../common/inline-json.ts';
import { browserImport, browserUrl, hydratedBy, RUNTIME } from '../test/browser-modules.ts';
import { until } from '../test/until.ts';
import Counter from './fixtures/counter.tsx';

/**
 * The island runtime in happy-dom: which islands hydrate, when (each strategy), in which order,
 * and that static HTML outside islands is left alone; the server renders with React, the runtime
 * hydrates with the library ISLAND_RUNTIME names. The browser tests cover real Chromium.
 */
const COUNTER_URL = browserUrl(pathToFileURL('islands/fixtures/counter.tsx'));

const window = new Window({ url: 'https://www.halden.co.uk/' });
const globals = globalThis as Record<string, unknown>;
for (const name of ['window', 'document', 'HTMLElement', 'Node', 'CustomEvent', 'navigator']) {
  // Defined, not assigned: Node's own `navigator` is a getter-only global.
  Object.defineProperty(globalThis, name, {
    value: name === 'window' ? window : (window as unknown as Record<string, unknown>)[name],
    configurable: true,
    writable: true,
  });
}

/** IntersectionObserver and matchMedia under test control. */
const observers: {
  callback: (entries: { isIntersecting: boolean }[]) => void;
  disconnected: boolean;
  rootMargin?: string;
}[] = [];
(window as unknown as Record<string, unknown>).IntersectionObserver = class {
  entry = {
    callback: (() => {}) as (entries: { isIntersecting: boolean }[]) => void,
    disconnected: false,
    rootMargin: undefined as string | undefined,
  };
  constructor(callback: (entries: { isIntersecting: boolean }[]) => void, options?: { rootMargin?: string }) {
    this.entry.callback = callback;
    this.entry.rootMargin = options?.rootMargin;
    observers.push(this.entry);
  }
  observe() {}
  disconnect() {
    this.entry.disconnected = true;
  }
};
globals.IntersectionObserver = (window as unknown as Record<string, unknown>).IntersectionObserver;
const mediaListeners: ((e: { matches: boolean }) => void)[] = [];
let mediaMatches = false;
window.matchMedia = ((query: string) => ({
  matches: mediaMatches,
  media: query,
  addEventListener: (_: string, listener: (e: { matches: boolean }) => void) => mediaListeners.push(listener),
  removeEventListener: () => {},
})) as unknown as typeof window.matchMedia;

function island(strategy: string, props: { label: string; start: number }, extra = ''): string {
  const html = renderToString(createElement(Counter, props));
  const attrs = `data-name="counter" data-url="${COUNTER_URL}" data-strategy="${strategy}" ${extra} data-props="${serializeInlineJson(props).replaceAll('"', '&quot;')}"`;
  return `<vitrine-island ${attrs}>${html}</vitrine-island>`;
}

/**
 * "Not hydrated yet" means something only once the runtime has had every chance: a load island
 * added now (as a live-preview morph adds one) goes through the same import and hydration, so once
 * it has hydrated, an island that should not have waited would have hydrated too.
 */
async function afterWitness(): Promise<void> {
  const html = island('load', { label: 'Witness', start: 0 }).replace('data-name="counter"', 'data-name="witness"');
  window.document.body.insertAdjacentHTML('beforeend', html);
  const witness = window.document.body.lastElementChild as unknown as HTMLElement;
  window.document.dispatchEvent(new window.CustomEvent('vitrine:morphed', { detail: { added: [witness] } }));
  await until(() => witness.hasAttribute('data-hydrated'), { what: 'the witness island' });
}

const { start } = await browserImport<typeof import('./runtime.ts')>(new URL('./runtime.ts', import.meta.url));

t.test('a load island hydrates and responds; static HTML around it stays static', async (t) => {
  window.document.body.innerHTML = `<p id="static">Static text</p>${island('load', { label: 'Clicks', start: 1 })}`;
  start();
  const el = window.document.querySelector('vitrine-island') as unknown as HTMLElement;
  await until(() => el.hasAttribute('data-hydrated'), { what: 'hydration' });
  t.equal(hydratedBy(el), RUNTIME, `hydrated by ${RUNTIME}`);
  const button = el.querySelector('button') as unknown as HTMLButtonElement;
  t.equal(button.textContent, 'Clicks 1', 'props came from the JSON attribute');
  button.click();
  await until(() => button.textContent === 'Clicks 2', { what: 'the click to re-render' });
  t.equal(button.textContent, 'Clicks 2');
  t.equal(window.document.getElementById('static')?.textContent, 'Static text');
});

t.test('a visible island waits for the viewport; a media island for its query', async (t) => {
  observers.length = 0;
  mediaListeners.length = 0;
  mediaMatches = false;
  window.document.body.innerHTML =
    island('visible', { label: 'Seen', start: 0 }) +
    island('media', { label: 'Wide', start: 0 }, 'data-media="(min-width: 900px)"');
  start();
  const [visible, media] = [...window.document.querySelectorAll('vitrine-island')] as unknown as HTMLElement[];
  await afterWitness();
  t.notOk(visible?.hasAttribute('data-hydrated'), 'not hydrated before it is visible');
  t.notOk(media?.hasAttribute('data-hydrated'), 'not hydrated while the query does not match');
  t.equal(observers.length, 1);
  observers[0]?.callback([{ isIntersecting: true }]);
  await until(() => visible?.hasAttribute('data-hydrated') ?? false, { what: 'visible hydration' });
  t.ok(observers[0]?.disconnected, 'the observer is released after hydration');
  t.equal(observers[0]?.rootMargin, '200px', 'by default an island starts 200 px before it is seen');
  for (const listener of mediaListeners) listener({ matches: true });
  await until(() => media?.hasAttribute('data-hydrated') ?? false, { what: 'media hydration' });
  t.pass('both hydrated once their trigger fired');
});

t.test(
  'a visible island with a margin of its own is watched with that margin (the live price: on screen)',
  async (t) => {
    observers.length = 0;
    window.document.body.innerHTML = island('visible', { label: 'Price', start: 0 }, 'data-margin="0px"');
    start();
    const [price] = [...window.document.querySelectorAll('vitrine-island')] as unknown as HTMLElement[];
    await afterWitness();
    t.equal(observers[0]?.rootMargin, '0px');
    t.notOk(price?.hasAttribute('data-hydrated'), 'not hydrated before it is on screen');
    observers[0]?.callback([{ isIntersecting: true }]);
    await until(() => price?.hasAttribute('data-hydrated') ?? false, { what: 'on-screen hydration' });
  },
);

t.test('islands streamed after the runtime ran are scheduled once the document is parsed', async (t) => {
  window.document.body.innerHTML = island('load', { label: 'Above', start: 0 });
  Object.defineProperty(window.document, 'readyState', { value: 'loading', configurable: true });
  t.teardown(() => Reflect.deleteProperty(window.document, 'readyState'));
  start();
  const above = window.document.querySelector('vitrine-island') as unknown as HTMLElement;
  await until(() => above.hasAttribute('data-hydrated'), { what: 'the island parsed before the runtime ran' });
  // The rest of the stream arrives, then parsing ends.
  window.document.body.insertAdjacentHTML('beforeend', island('load', { label: 'Below', start: 0 }));
  const below = window.document.querySelectorAll('vitrine-island')[1] as unknown as HTMLElement;
  await afterWitness();
  t.notOk(below.hasAttribute('data-hydrated'), 'not seen while the document is loading');
  window.document.dispatchEvent(new window.Event('DOMContentLoaded'));
  await until(() => below.hasAttribute('data-hydrated'), { what: 'the island streamed after the runtime ran' });
  t.pass('both hydrated');
});

t.test('an idle island hydrates when the browser is idle', async (t) => {
  let idle: (() => void) | undefined;
  (window as unknown as Record<string, unknown>).requestIdleCallback = (cb: () => void) => {
    idle = cb;
  };
  window.document.body.innerHTML = island('idle', { label: 'Idle', start: 0 });
  start();
  const el = window.document.querySelector('vitrine-island') as unknown as HTMLElement;
  await afterWitness();
  t.notOk(el.hasAttribute('data-hydrated'), 'not before the browser is idle');
  idle?.();
  await until(() => el.hasAttribute('data-hydrated'), { what: 'idle hydration' });
});

t.test('an interaction island hydrates on the first pointer, focus or key inside it, not before', async (t) => {
  for (const type of ['pointerdown', 'focusin', 'keydown']) {
    window.document.body.innerHTML = `<p id="outside" tabindex="-1">outside</p>${island('interaction', { label: type, start: 0 })}`;
    start();
    const el = window.document.querySelector('vitrine-island') as unknown as HTMLElement;
    window.document.getElementById('outside')?.dispatchEvent(new window.Event(type, { bubbles: true }));
    await afterWitness();
    t.notOk(el.hasAttribute('data-hydrated'), `not hydrated by a ${type} outside it`);
    const button = el.querySelector('button') as unknown as { dispatchEvent(event: unknown): boolean };
    button.dispatchEvent(new window.Event(type, { bubbles: true }));
    await until(() => el.hasAttribute('data-hydrated'), { what: `hydration on ${type}` });
  }
  // Focus that arrived before the runtime started is an interaction too.
  window.document.body.innerHTML = island('interaction', { label: 'Early', start: 0 });
  const early = window.document.querySelector('vitrine-island') as unknown as HTMLElement;
  (early.querySelector('button') as unknown as { focus(): void }).focus();
  start();
  await until(() => early.hasAttribute('data-hydrated'), { what: 'hydration of an island focused before start' });
});

t.test('a nested island hydrates only after its parent', async (t) => {
  // The fixture parent does not render its child island, so React reports a mismatch: expected here.
  const original = console.error;
  console.error = () => {};
  t.teardown(() => {
    console.error = original;
  });
  let idle: (() => void) | undefined;
  (window as unknown as Record<string, unknown>).requestIdleCallback = (cb: () => void) => {
    idle = cb;
  };
  window.document.body.innerHTML = `<vitrine-island data-name="parent" data-url="${COUNTER_URL}" data-strategy="idle" data-props="{&quot;label&quot;:&quot;P&quot;,&quot;start&quot;:0}">${island('load', { label: 'Child', start: 0 })}</vitrine-island>`;
  const order: string[] = [];
  const observer = new window.MutationObserver((records) => {
    for (const r of records)
      if (r.attributeName === 'data-hydrated') order.push((r.target as unknown as HTMLElement).dataset.name ?? '');
  });
  observer.observe(window.document.body, { attributes: true, subtree: true });
  start();
  await afterWitness();
  const nested = () => order.filter((name) => name !== 'witness');
  t.same(nested(), [], 'the child waits although its own trigger (load) fired');
  idle?.();
  await until(() => nested().length >= 1, { what: 'parent hydration' });
  t.equal(nested()[0], 'parent', 'parent first');
});

t.test('a chunk that fails to load is reported, not thrown', async (t) => {
  const errors: unknown[] = [];
  window.document.addEventListener('vitrine:island-error', (e) => errors.push((e as unknown as CustomEvent).detail));
  const original = console.error;
  console.error = () => {};
  t.teardown(() => {
    console.error = original;
  });
  window.document.body.innerHTML = island('load', { label: 'x', start: 0 }).replace(
    COUNTER_URL,
    browserUrl(pathToFileURL('islands/fixtures/missing.tsx')),
  );
  start();
  await until(() => errors.length === 1, { what: 'the error event' });
  t.equal(errors.length, 1);
});

t.test(
  'after a live-preview morph, new islands hydrate and removed ones are unmounted; others are left alone',
  async (t) => {
    window.document.body.innerHTML = island('load', { label: 'Kept', start: 0 });
    start();
    const kept = window.document.querySelector('vitrine-island') as unknown as HTMLElement;
    await until(() => kept.hasAttribute('data-hydrated'), { what: 'first hydration' });
    (kept.querySelector('button') as unknown as HTMLButtonElement).click();
    await until(() => kept.textContent === 'Kept 1', { what: 'state in the kept island' });

    const holder = window.document.createElement('div');
    holder.innerHTML = island('load', { label: 'Added', start: 5 });
    window.document.body.append(holder);
    const added = holder.querySelector('vitrine-island') as unknown as HTMLElement;
    window.document.dispatchEvent(
      new window.CustomEvent('vitrine:morphed', { detail: { added: [added], removed: [kept] } }),
    );
    await until(() => added.hasAttribute('data-hydrated'), { what: 'the added island' });
    t.equal(added.textContent, 'Added 5');
    await until(() => kept.textContent === '', { what: 'the removed island unmounted' });
    start();
    t.equal(added.textContent, 'Added 5', 'start() again does not hydrate an island twice');
  },
);
