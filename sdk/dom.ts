/**
 * The layer's side of the DOM contract: the attributes the site writes, the
 * ids and attributes the layer writes, and where the page sits.
 */
/** A window with its constructors (`win.Element`, …): the page's, or a test's. */
export type PageWindow = Window & typeof globalThis;

export const CSLP = 'data-cslp';
export const BUTTON_POSITION = 'data-cslp-button-position';
export const TOOLTIP_ID = 'cslp-tooltip';
/** Marks nodes the layer owns, so a page morph keeps them (site/morph.ts). */
export const LAYER_OWNED = 'data-cslp-layer';

/** Inside a frame: where the editor would be. */
export function isFramed(win: PageWindow): boolean {
  return win.parent !== win;
}

/** Opened by another window and not framed (4.x Live Preview in a new tab): the opener would be the editor. */
export function isOpenedInTab(win: PageWindow): boolean {
  return !isFramed(win) && Boolean(win.opener);
}

/** Tagged elements with no tagged descendant: the ones that carry a field's value. */
export function leafTagged(doc: Document): Element[] {
  return Array.from(doc.querySelectorAll(`[${CSLP}]`)).filter((el) => !el.querySelector(`[${CSLP}]`));
}

/**
 * Adds a stylesheet to the page or a shadow root without a `<style>` element where constructable
 * sheets exist, so a page whose CSP is `style-src 'self'` still shows the layer's outline and
 * buttons. Returns what takes it away again.
 */
export function addStyles(win: PageWindow, css: string, target: Document | ShadowRoot = win.document): () => void {
  if ('adoptedStyleSheets' in target && typeof win.CSSStyleSheet === 'function') {
    const sheet = new win.CSSStyleSheet();
    sheet.replaceSync(css);
    target.adoptedStyleSheets = [...target.adoptedStyleSheets, sheet];
    return () => {
      target.adoptedStyleSheets = target.adoptedStyleSheets.filter((kept) => kept !== sheet);
    };
  }
  const style = win.document.createElement('style');
  style.textContent = css;
  (target === win.document ? win.document.head : target).append(style);
  return () => style.remove();
}
