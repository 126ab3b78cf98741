import type { CslpData } from '../cslp/parse.ts';
import type { FieldSchema } from './field-type.ts';
import type { Permissions } from './protocol.ts';

/**
 * When a field is disabled and why: the reason is shown in the toolbar, the
 * outline turns grey and the toolbar's buttons are disabled. Checked in the table's order; the
 * first reason that holds is the one shown.
 */

export const DISABLED_REASONS = {
  ENTRY_UPDATE: 'You do not have permission to edit this entry',
  READ_ONLY: 'You have only read access to this field',
  LOCALIZED_ENTRY: 'Editing this field is restricted in localized entries',
  NOT_LOCALIZED: 'This field is not editable as it is not localized',
  UNLINKED_VARIANT: 'This field is not editable as it is not linked to the selected variant',
  AUDIENCE_MODE: 'Open an Experience from Audience widget to start editing',
  VARIANT_MISMATCH: "This field is not editable as it doesn't match the selected variant",
} as const;

/** Classes the editor's `show-variant-fields` puts on site elements. */
export const VARIANT_CLASSES = {
  variant: 'visual-builder__variant-field',
  base: 'visual-builder__base-field',
  disabled: 'visual-builder__disabled-variant-field',
} as const;

export interface FieldContext {
  cslp: CslpData;
  schema: FieldSchema | undefined;
  permissions: Permissions;
  element: Element;
  masterLocale: string;
  /** Editor state (global state). */
  locale: string;
  variant: string | undefined;
  audienceMode: boolean;
}

/** The reason text, or '' when the field is editable. */
export function disabledReason(field: FieldContext): string {
  const { cslp, schema, element } = field;
  const meta = schema?.field_metadata;
  if (!field.permissions.update) return DISABLED_REASONS.ENTRY_UPDATE;
  if (meta?.updateRestrict) return DISABLED_REASONS.READ_ONLY;
  if (schema?.non_localizable && cslp.locale !== field.masterLocale) return DISABLED_REASONS.LOCALIZED_ENTRY;
  if (field.variant && cslp.locale !== field.locale) return DISABLED_REASONS.NOT_LOCALIZED;
  if (meta?.isUnlinkedVariant) return DISABLED_REASONS.UNLINKED_VARIANT;
  if (field.audienceMode) {
    const classes = element.classList;
    if (classes.contains(VARIANT_CLASSES.disabled)) return DISABLED_REASONS.VARIANT_MISMATCH;
    if (!classes.contains(VARIANT_CLASSES.variant) && !classes.contains(VARIANT_CLASSES.base))
      return DISABLED_REASONS.AUDIENCE_MODE;
  }
  return '';
}
