import type { EditorChannel } from './protocol.ts';

/**
 * The workbench's stored variant (4.x audiences): its fields are the ones ticked "variant field" in
 * the form, its order of priority is `VARIANT_ORDER`. Kept in the workbench's state, not in
 * content/: the contract's content layout has no variants (0181). Choosing it is what the editor
 * does when an Experience is opened: audience mode, the variant id, the variant fields with their
 * order; the layer then asks whether each field exists in the variant.
 */

export const VARIANT_UID = 'cs_workbench_variant';
/** A variant of lower priority than the workbench's, so that `variantOrder` has an order to give. */
export const LOWER_VARIANT_UID = 'cs_workbench_lower';
/** Lowest priority first, as the editor sends `variantOrder`. */
export const VARIANT_ORDER = [LOWER_VARIANT_UID, VARIANT_UID];

export interface VariantState {
  /** The chosen variant, or undefined for the base entry. */
  selected: string | undefined;
  /** `{content type}:{field path without indexes}` of the variant's own fields. */
  fields: Set<string>;
}

/** Whether a field exists in the chosen variant: every field does when none is chosen. */
export function existsInVariant(state: VariantState, contentType: string, fieldPathWithIndex: string): boolean {
  if (!state.selected) return true;
  const path = fieldPathWithIndex.replace(/\.\d+(?=\.|$)/g, '');
  return [...state.fields].some(
    (key) => key === `${contentType}:${path}` || `${contentType}:${path}`.startsWith(`${key}.`),
  );
}

/** Tells the page the chosen variant as the editor does; back to the base entry without one. */
export async function sendVariant(vb: EditorChannel, state: VariantState, locale: string): Promise<void> {
  const variant = state.selected;
  // The layer compares the variant's locale with the tags' (a variant field in another locale is locked).
  await vb.send('get-locale', { locale });
  await vb.send('set-audience-mode', { audienceMode: Boolean(variant) });
  await vb.send('get-variant-id', { variant });
  if (variant)
    await vb.send('show-variant-fields', {
      variant_data: { variant, variantOrder: VARIANT_ORDER, highlightVariantFields: true },
    });
  else await vb.send('remove-variant-fields', {});
}
