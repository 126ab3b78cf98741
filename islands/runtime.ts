import type { ComponentType } from 'react';
import type { Root } from 'react-dom/client';

/**
 * The island runtime: finds `<vitrine-island>` elements, imports each island's
 * module when its trigger fires (load, idle, visible, interaction, media) and hydrates it with its JSON props.
 * Parents hydrate before children. No eval: props are JSON, code comes from the module URL.
 */

type Trigger = (element: HTMLElement, run: () => void) => void;

const triggers: Record<string, Trigger> = {
  load: (_el, run) => run(),
  idle: (_el, run) => {
    if ('requestIdleCallback' in window) window.requestIdleCallback(run, { timeout: 2000 });
    else setTimeout(run, 200);
  },
  visible: (el, run) => {
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          observer.disconnect();
          run();
        }
      },
      // Within 200 px unless the island says otherwise (data-margin, a CSS margin).
      { rootMargin: el.dataset.margin ?? '200px' },
    );
    // The custom element itself has no box (display: contents); watch what it renders.
    for (const child of Array.from(el.children)) observer.observe(child);
  },
  // The first pointer, focus or key inside the island: its code is not fetched until a visitor
  // reaches for it (decision 0199). The markup must work before then (the header's <details> does).
  interaction: (el, run) => {
    // Focus that got there before the runtime started (a keyboard user's early Tab) counts too.
    if (el.contains(document.activeElement)) {
      run();
      return;
    }
    const events = ['pointerdown', 'focusin', 'keydown'] as const;
    const once = () => {
      for (const type of events) el.removeEventListener(type, once, true);
      run();
    };
    for (const type of events) el.addEventListener(type, once, { capture: true, passive: true });
  },
  media: (el, run) => {
    const query = window.matchMedia(el.dataset.media ?? 'all');
    if (query.matches) run();
    else
      query.addEventListener('change', function listener(e) {
        if (!e.matches) return;
        query.removeEventListener('change', listener);
        run();
      });
  },
};

/** Settles when an island has hydrated (or failed to); children wait on their parent's. */
const hydrated = new WeakMap<Element, Promise<void>>();
const roots = new WeakMap<Element, Root>();

async function hydrate(el: HTMLElement): Promise<void> {
  // Parents first: a nested island waits until the island around it has hydrated.
  const parent = el.parentElement?.closest('vitrine-island');
  if (parent) await hydrated.get(parent);
  const url = el.dataset.url;
  if (!url) throw new Error(`island ${el.dataset.name} has no module URL`);
  const [module, { hydrateIsland }] = await Promise.all([
    import(/* @vite-ignore */ url) as Promise<{ default: ComponentType<object> }>,
    import('./hydrate-island.ts'),
  ]);
  const props = JSON.parse(el.dataset.props ?? '{}') as object;
  // A task boundary between loading the modules and hydrating keeps the two apart on slow phones.
  await new Promise((resolve) => setTimeout(resolve, 0));
  // Marked hydrated once React has committed the island, its listeners attached, not when it starts.
  await new Promise<void>((committed) => roots.set(el, hydrateIsland(el, module.default, props, committed)));
  el.setAttribute('data-hydrated', '');
}

/** Arms an island's trigger once; an island already scheduled is left alone. */
function schedule(el: HTMLElement): void {
  if (hydrated.has(el)) return;
  let resolve!: () => void;
  hydrated.set(el, new Promise<void>((r) => (resolve = r)));
  const trigger = triggers[el.dataset.strategy ?? 'load'] ?? triggers.load;
  trigger?.(el, () => {
    hydrate(el)
      .catch((error: unknown) => {
        console.error(`Island ${el.dataset.name} failed to hydrate`, error);
        document.dispatchEvent(new CustomEvent('vitrine:island-error', { detail: { name: el.dataset.name, error } }));
      })
      .finally(resolve);
  });
}

interface MorphDetail {
  added?: HTMLElement[];
  removed?: HTMLElement[];
}

let listening = false;

const scheduleAll = () => {
  for (const el of Array.from(document.querySelectorAll<HTMLElement>('vitrine-island'))) schedule(el);
};

export function start(): void {
  scheduleAll();
  // The runtime is an async module: on a slow connection it can run while the rest of the streamed
  // page is still arriving. Islands already parsed start now; the ones below them once it is all in.
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', scheduleAll, { once: true });
  if (listening) return;
  listening = true;
  // Live preview morphs the page in place (sdk/): islands it removed are unmounted, new ones hydrate.
  document.addEventListener('vitrine:morphed', (event) => {
    const { added = [], removed = [] } = (event as CustomEvent<MorphDetail>).detail ?? {};
    for (const el of removed) {
      roots.get(el)?.unmount();
      roots.delete(el);
    }
    for (const el of added) schedule(el);
  });
}
