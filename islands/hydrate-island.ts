import { type ComponentType, createElement, type ReactNode, startTransition, useEffect } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';

/**
 * Calls `onCommit` once the island's tree is committed. A transition's hydrateRoot returns before
 * any of it is, and a child's effects run before its parent's, so by then the island's own
 * listeners are attached: `data-hydrated` set earlier let a key pressed "after hydration" (the
 * header's Escape) reach a page that did not listen yet.
 */
function Committed({ onCommit, children }: { onCommit: () => void; children?: ReactNode }): ReactNode {
  useEffect(onCommit, [onCommit]);
  return children;
}

/**
 * The one place the browser touches React DOM (or preact/compat under ISLAND_RUNTIME=preact). The
 * runtime imports this module only when the first island's trigger fires, so evaluating the library
 * (a long task on a slow phone for React DOM) never runs before the first paint. The wrapper renders
 * no element, so the server's markup is hydrated as it is.
 */
export function hydrateIsland(
  el: HTMLElement,
  component: ComponentType<object>,
  props: object,
  onCommit: () => void = () => {},
): Root {
  let root: Root | undefined;
  // A plain hydrateRoot hydrates at the default priority, in one task however large the island; in a
  // transition React works in slices of a few milliseconds and yields between them (decision 0183).
  startTransition(() => {
    root = hydrateRoot(el, createElement(Committed, { onCommit }, createElement(component, props)));
  });
  if (!root) throw new Error('hydrateRoot returned no root');
  return root;
}
