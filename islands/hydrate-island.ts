import { type ComponentType, createElement } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';

/**
 * The one place the browser touches React DOM (or preact/compat under ISLAND_RUNTIME=preact). The
 * runtime imports this module only when the first island's trigger fires, so evaluating the library
 * (a long task on a slow phone for React DOM) never runs before the first paint.
 */
export function hydrateIsland(el: HTMLElement, component: ComponentType<object>, props: object): Root {
  return hydrateRoot(el, createElement(component, props));
}
