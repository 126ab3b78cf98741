/**
 * The layer's timings and distances in one place, named for what they pace, so a
 * rule used by two features is one constant.
 */

/** Live preview: how often a client-rendered page asks whether it shows an entry. */
export const ENTRY_PAGE_CHECK_MS = 1500;

/** Transport: a request fails without an ACK within this budget, checked this often. */
export const ACK_BUDGET_MS = 1000;
export const RESPONSE_CYCLE_MS = 500;

/** Builder: a pointer move is handled once it pauses this long. */
export const HOVER_DEBOUNCE_MS = 10;
/** Builder: typed text goes to the editor at most this often. */
export const SYNC_THROTTLE_MS = 300;
/** Builder: page changes (morphs, islands) are followed once they pause this long. */
export const PAGE_MUTATION_DEBOUNCE_MS = 100;
/** Builder and collaboration: what grows while one types is placed again once typing pauses. */
export const INPUT_REPOSITION_MS = 200;
/** Builder: a burst of pastes syncs and re-places once, this long after the last. */
export const PASTE_DEBOUNCE_MS = 100;
/** Builder: a newly added item is clicked this long after it appears. */
export const NEW_ITEM_CLICK_MS = 350;
/** Builder: how long to wait for a newly added item to appear. */
export const OBSERVER_TIMEOUT_MS = 4000;
/** Builder: how long re-rendered variant fields are marked again after a variant patch. */
export const VARIANT_OBSERVER_TIMEOUT_MS = 8000;
/**
 * Builder (4.x): a workflow-stage or variant-permission question not answered within this time
 * counts as "allowed", like an error answer (4.4.1 waits forever on an editor handler that throws).
 */
export const LOCK_ANSWER_MS = 2000;
/**
 * Builder (4.x): the hover toolbar's content-type name and reference parent wait this long; without
 * an answer the label shows without them.
 */
export const LABEL_ANSWER_MS = 1000;

/** Collaboration: pins follow page changes once they pause this long. */
export const THREAD_MUTATION_DEBOUNCE_MS = 1000;
/** Collaboration: a pin whose element is missing is tried again this many times, this far apart. */
export const THREAD_RETRIES = 5;
export const THREAD_RETRY_MS = 1000;

/** Collaboration: a pin's point sits this far below and right of the pin's corner. */
export const PIN_OFFSET = { up: 43, left: 9 } as const;
/** Collaboration: the mention list's height; it flips above the input when less is free below. */
export const MENTION_LIST_PX = 160;
/** Collaboration: more comments load when the list is scrolled this close to its end. */
export const MORE_WITHIN_PX = 3;
/**
 * Collaboration: the thread popup's gap to its pin, its safe margins inside the viewport (42 px
 * at the top, clear of the editor's own bar; 16 px on the other sides), and the size it is placed
 * with while it cannot be measured (not laid out yet).
 */
export const POPUP_GAP_PX = 8;
export const POPUP_MARGIN_PX = { top: 42, right: 16, bottom: 16, left: 16 } as const;
export const POPUP_DEFAULT_SIZE = { width: 334, height: 198 } as const;
/** Builder: a focused field this close to the top of the viewport gets its toolbar's tooltips below. */
export const TOOLTIP_BELOW_WITHIN_PX = 96;

/**
 * Hover proximity: 10 % of an element's size, at most 30 px. Within it the pointer still counts as
 * on the element (the builder's hover, the edit button's safe zone).
 */
export function proximity(size: number): number {
  return Math.min(size * 0.1, 30);
}
