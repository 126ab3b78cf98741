import { LAYER_OWNED, type PageWindow } from '../dom.ts';

/**
 * The pseudo-editable copy (`.visual-builder__pseudo-editable-element`): when the
 * page shows a field formatted (a price as `£779`) or cut short with an ellipsis, editing it in
 * place would edit the formatting. A stand-in showing the stored value is laid over the field and
 * edited instead; the field itself is hidden, never changed, and shown again when the copy goes.
 */

export const PSEUDO_CLASS = 'visual-builder__pseudo-editable-element';
export const PSEUDO_SOURCE_CLASS = 'visual-builder__pseudo-editable-source';

/** Text properties the copy takes from the field so it reads the same. */
const COPIED = [
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'line-height',
  'letter-spacing',
  'text-transform',
  'text-align',
  'color',
  'background-color',
  'padding-top',
  'padding-right',
  'padding-bottom',
  'padding-left',
];

/** Whether the stored value must be edited on a copy: the page shows other text, or cuts it short. */
export function needsPseudo(shown: string, stored: string, truncated: boolean): boolean {
  return stored.trim() !== '' && (truncated || shown.trim() !== stored.trim());
}

/** The text overflows its box behind an ellipsis. */
export function isTruncated(win: PageWindow, element: HTMLElement): boolean {
  return win.getComputedStyle(element).textOverflow === 'ellipsis' && element.scrollWidth > element.clientWidth;
}

export interface Pseudo {
  element: HTMLElement;
  /** Lays the copy over the field again (after scroll, resize or a page change). */
  place(): void;
  /** Removes the copy and shows the field again. */
  remove(): void;
}

export function createPseudo(win: PageWindow, source: HTMLElement, text: string, fieldType: string): Pseudo {
  const doc = win.document;
  const copy = doc.createElement('div');
  copy.className = PSEUDO_CLASS;
  copy.textContent = text;
  copy.setAttribute('data-cslp-field-type', fieldType);
  // Kept by page morphs; the builder's click handling leaves it alone (caret placement).
  copy.setAttribute(LAYER_OWNED, '');
  copy.setAttribute('data-studio-ui', 'true');
  const computed = win.getComputedStyle(source);
  for (const property of COPIED) copy.style.setProperty(property, computed.getPropertyValue(property));
  const place = () => {
    const r = source.getBoundingClientRect();
    copy.style.top = `${r.top}px`;
    copy.style.left = `${r.left}px`;
    copy.style.minWidth = `${r.width}px`;
    copy.style.minHeight = `${r.height}px`;
  };
  place();
  doc.body.append(copy);
  source.classList.add(PSEUDO_SOURCE_CLASS);
  return {
    element: copy,
    place,
    remove() {
      copy.remove();
      source.classList.remove(PSEUDO_SOURCE_CLASS);
    },
  };
}
