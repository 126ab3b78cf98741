import { parseCslp } from '../cslp/parse.ts';
import { CSLP } from '../dom.ts';
import { VARIANT_CLASSES } from './disabled.ts';

/**
 * Variant marks on site elements: in audience mode the editor has the
 * builder mark each tagged element as a field of the selected variant, a base-entry field, a field
 * of a variant of lower priority (4.x `variantOrder`), or a field of another variant; the disabled
 * reasons read these classes.
 */

export const VARIANT_OUTLINE_CLASS = 'visual-builder__variant-field--outline';

export type VariantMark = keyof typeof VARIANT_CLASSES;

/**
 * Tags carrying the variant uid are the variant's; other v1 tags are the base entry's; other v2
 * tags are a lower-order variant's when `order` puts their variant before the selected one (4.4.1
 * `isLowerOrderVariant`, last occurrences), else another variant's.
 */
export function variantMark(tag: string, variant: string, order: readonly string[] = []): VariantMark {
  if (variant && tag.includes(variant)) return 'variant';
  if (!tag.startsWith('v2:')) return 'base';
  const own = order.lastIndexOf(parseCslp(tag)?.variant ?? '');
  return own >= 0 && own < order.lastIndexOf(variant) ? 'lower' : 'disabled';
}

/** Sets exactly one mark on `element` from its current tag (a lower-order field is a variant field too); the outline only on highlighted variant fields. */
export function markVariant(element: Element, variant: string, highlight: boolean, order?: readonly string[]): void {
  const mark = variantMark(element.getAttribute(CSLP) ?? '', variant, order);
  for (const [name, className] of Object.entries(VARIANT_CLASSES))
    element.classList.toggle(className, name === mark || (name === 'variant' && mark === 'lower'));
  element.classList.toggle(VARIANT_OUTLINE_CLASS, mark === 'variant' && highlight);
}
