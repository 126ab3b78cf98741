import { type ComponentType, createElement, startTransition } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';

/**
 * The one place the browser touches React DOM (or preact/compat under ISLAND_RUNTIME=preact). The
 * runtime imports this module only when the first island's trigger fires, so evaluating the library
 * (a long task on a slow phone for React DOM) never runs before the first paint.
 */
export function hydrateIsland(el: HTMLElement, component: ComponentType<object>, props: object): Root {
  let root: Root | undefined;
  // A plain hydrateRoot hydrates at the default priority, in one task however large the island; in a
  // transition React works in slices of a few milliseconds and yields between them (decision 0183).
  startTransition(() => {
    root = hydrateRoot(el, createElement(component, props));
  });
  if (!root) throw new Error('hydrateRoot returned no root');
  return root;
}
