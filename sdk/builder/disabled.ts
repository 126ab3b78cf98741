import type { CslpData } from '../cslp/parse.ts';
import type { FieldSchema } from './field-type.ts';
import type { Permissions, VariantPermission, WorkflowStage } from './protocol.ts';

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
  // 4.x: workflow-stage and variant locks, in 4.4.1's words.
  NOT_IN_VARIANT: 'This field does not exist in the selected variant',
  // 4.x: an unlinked field once the editor says whether the user may link it (`canLinkVariant`).
  UNLINKED_CAN_LINK: 'This field is not editable as it is not linked to the selected variant.',
  UNLINKED_CANNOT_LINK:
    'This field is not editable as it is not linked to the selected variant. Contact your stack admin or owner to link it.',
} as const;

/** 4.4.1's workflow-stage reasons, with the stage's name. */
export const STAGE_REASONS = {
  LOCKED: (stage: string) => `You do not have Edit access to this entry on the '${stage}' workflow stage`,
  ROLE_AND_STAGE: (stage: string) =>
    `Editing is restricted for your role or by the rules for the '${stage}' stage. Contact your admin for edit access.`,
  REQUEST: (stage: string) => `You do not have the edit access to this entry on the '${stage}' workflow stage.`,
  PENDING: (stage: string) =>
    `You do not have the edit access to this entry on the '${stage}' workflow stage. Your request has been sent and is awaiting approval.`,
} as const;

/** Classes the editor's `show-variant-fields` puts on site elements. */
export const VARIANT_CLASSES = {
  variant: 'visual-builder__variant-field',
  base: 'visual-builder__base-field',
  disabled: 'visual-builder__disabled-variant-field',
  /** 4.x: a field of a variant of lower priority than the selected one (`variantOrder`); also a variant field. */
  lower: 'visual-builder__lower-order-variant-field',
} as const;

export interface FieldContext {
  cslp: CslpData;
  schema: FieldSchema | undefined;
  permissions: Permissions;
  /** The entry's workflow stage (4.x); undefined reads as unlocked. */
  stage?: WorkflowStage;
  /** Whether the field exists in the selected variant (4.x). */
  inVariant?: VariantPermission;
  element: Element;
  masterLocale: string;
  /** Editor state (global state). */
  locale: string;
  variant: string | undefined;
  audienceMode: boolean;
}

/**
 * Why a field cannot be edited ('' when it can), and what the lock offers: asking the editor for
 * edit access (or a request pending), or linking the field to the variant (4.x).
 */
export interface Disabled {
  reason: string;
  request?: 'request' | 'pending' | 'link';
}

/** The reason and what the lock offers; 3.2.5's reasons first, then 4.x's stage and variant locks. */
export function disabledState(field: FieldContext): Disabled {
  const reason = disabledReason(field);
  if (reason === DISABLED_REASONS.UNLINKED_CAN_LINK) return { reason, request: 'link' };
  if (reason) return { reason };
  const { stage } = field;
  if (stage && !stage.update) {
    const { name, request } = stage;
    if (request === 'pending') return { reason: STAGE_REASONS.PENDING(name), request };
    if (request === 'request') return { reason: STAGE_REASONS.REQUEST(name), request };
    return { reason: STAGE_REASONS.LOCKED(name) };
  }
  if (field.inVariant?.update === false) return { reason: DISABLED_REASONS.NOT_IN_VARIANT };
  return { reason: '' };
}

/** The reason text of 3.2.5's rules, or '' when they allow editing. */
export function disabledReason(field: FieldContext): string {
  const { cslp, schema, element } = field;
  const meta = schema?.field_metadata;
  if (!field.permissions.update)
    return field.stage && !field.stage.update
      ? STAGE_REASONS.ROLE_AND_STAGE(field.stage.name)
      : DISABLED_REASONS.ENTRY_UPDATE;
  if (meta?.updateRestrict) return DISABLED_REASONS.READ_ONLY;
  if (schema?.non_localizable && cslp.locale !== field.masterLocale) return DISABLED_REASONS.LOCALIZED_ENTRY;
  if (field.variant && cslp.locale !== field.locale) return DISABLED_REASONS.NOT_LOCALIZED;
  if (meta?.isUnlinkedVariant) {
    // A 3.2.5 editor does not say whether the field may be linked: its text stays.
    const link = meta.canLinkVariant;
    if (link === undefined) return DISABLED_REASONS.UNLINKED_VARIANT;
    return link ? DISABLED_REASONS.UNLINKED_CAN_LINK : DISABLED_REASONS.UNLINKED_CANNOT_LINK;
  }
  if (field.audienceMode) {
    const classes = element.classList;
    // 4.x: a lower-order variant's field is editable, unless its variant permission could not be resolved.
    if (classes.contains(VARIANT_CLASSES.lower) && field.inVariant?.error) return DISABLED_REASONS.VARIANT_MISMATCH;
    if (classes.contains(VARIANT_CLASSES.disabled)) return DISABLED_REASONS.VARIANT_MISMATCH;
    if (!classes.contains(VARIANT_CLASSES.variant) && !classes.contains(VARIANT_CLASSES.base))
      return DISABLED_REASONS.AUDIENCE_MODE;
  }
  return '';
}
