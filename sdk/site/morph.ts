import morphdom from 'morphdom';
import { LAYER_OWNED, type PageWindow } from '../dom.ts';

/**
 * Updates the live page to a freshly rendered copy of itself without a reload (a lazy chunk:
 * morphdom loads with the first change). Scroll position and focus survive. Islands belong to
 * React once hydrated, so the morph never reaches into one: an island whose attributes (module,
 * props) are unchanged is kept as it is, a changed one is swapped for the server's new element,
 * and islands that appear are left for the island runtime. The document then receives
 * `vitrine:morphed` with the islands to hydrate (`added`) and those gone (`removed`).
 */

export const MORPHED_EVENT = 'vitrine:morphed';

export interface MorphedDetail {
  /** Islands new to the page, in document order (parents before the islands inside them). */
  added: Element[];
  /** Islands taken out of the page (their React roots can be unmounted). */
  removed: Element[];
}

const ISLAND = 'vitrine-island';
/** Set by the island runtime after hydration; not part of what the server renders. */
const RUNTIME_ATTRIBUTES = new Set(['data-hydrated']);

/** Islands not inside another island, in document order. */
function outermost(root: Element): Element[] {
  return Array.from(root.querySelectorAll(ISLAND)).filter((island) => !island.parentElement?.closest(ISLAND));
}

function sameIsland(live: Element, next: Element): boolean {
  const names = live.getAttributeNames().filter((name) => !RUNTIME_ATTRIBUTES.has(name));
  return (
    names.length === next.attributes.length &&
    names.every((name) => live.getAttribute(name) === next.getAttribute(name))
  );
}

export function morphPage(win: PageWindow, html: string): void {
  const doc = win.document;
  const next = new win.DOMParser().parseFromString(html, 'text/html');
  const { scrollX, scrollY } = win;
  const focused = doc.activeElement !== doc.body ? doc.activeElement : null;
  const existing = new Set(doc.querySelectorAll(ISLAND));
  // Before the morph, which moves new nodes out of `next` into the page.
  const wanted = outermost(next.body);

  morphdom(doc.body, next.body, {
    onBeforeElUpdated(from, to) {
      // Islands, and the field the visual builder is editing (it carries data-cslp-field-type).
      if (existing.has(from) || from.hasAttribute('data-cslp-field-type')) return false;
      // What the visitor is typing stays: the server's copy has the field empty.
      if (from === focused && 'value' in from && 'value' in to) to.value = from.value;
      return true;
    },
    // The edit button and other layer nodes are not in the server's HTML.
    onBeforeNodeDiscarded: (node) => !(node instanceof win.Element && node.hasAttribute(LAYER_OWNED)),
  });

  const live = outermost(doc.body);
  // Outside islands the body now matches the new document, so the islands pair up in order.
  if (live.length === wanted.length)
    live.forEach((island, i) => {
      const replacement = wanted[i] as Element;
      if (existing.has(island) && !sameIsland(island, replacement))
        island.replaceWith(doc.importNode(replacement, true));
    });
  if (next.title && next.title !== doc.title) doc.title = next.title;

  if (win.scrollX !== scrollX || win.scrollY !== scrollY) win.scrollTo(scrollX, scrollY);
  const refocus = focused?.isConnected ? focused : focused?.id ? doc.getElementById(focused.id) : null;
  if (refocus instanceof win.HTMLElement && doc.activeElement !== refocus) refocus.focus({ preventScroll: true });

  const detail: MorphedDetail = {
    added: Array.from(doc.querySelectorAll(ISLAND)).filter((island) => !existing.has(island)),
    removed: [...existing].filter((island) => !island.isConnected),
  };
  doc.dispatchEvent(new win.CustomEvent(MORPHED_EVENT, { detail }));
}
