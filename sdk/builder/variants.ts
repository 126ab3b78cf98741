import { CSLP } from '../dom.ts';
import { VARIANT_CLASSES } from './disabled.ts';

/**
 * Variant marks on site elements: in audience mode the editor has the
 * builder mark each tagged element as a field of the selected variant, a base-entry field, or a
 * field of another variant; the disabled reasons read these classes.
 */

export const VARIANT_OUTLINE_CLASS = 'visual-builder__variant-field--outline';

export type VariantMark = keyof typeof VARIANT_CLASSES;

/** Tags carrying the variant uid are the variant's; other v1 tags are the base entry's; other v2 tags another variant's. */
export function variantMark(tag: string, variant: string): VariantMark {
  if (variant && tag.includes(variant)) return 'variant';
  return tag.startsWith('v2:') ? 'disabled' : 'base';
}

/** Sets exactly one mark on `element` from its current tag; the outline only on highlighted variant fields. */
export function markVariant(element: Element, variant: string, highlight: boolean): void {
  const mark = variantMark(element.getAttribute(CSLP) ?? '', variant);
  for (const [name, className] of Object.entries(VARIANT_CLASSES)) element.classList.toggle(className, name === mark);
  element.classList.toggle(VARIANT_OUTLINE_CLASS, mark === 'variant' && highlight);
}
