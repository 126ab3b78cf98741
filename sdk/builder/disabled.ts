import type { CslpData } from '../cslp/parse.ts';
import type { FieldSchema } from './field-type.ts';
import type { Permissions, VariantPermission, WorkflowStage } from './protocol.ts';
import { fill, TEXTS, type Texts } from './text.ts';

/**
 * When a field is disabled and why: the reason is shown in the toolbar, the
 * outline turns grey and the toolbar's buttons are disabled. Checked in order; the first reason
 * that holds is the one shown, in 4.4.1's words or the page's language (`texts`, text.ts).
 */

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
export function disabledState(field: FieldContext, texts: Texts = TEXTS): Disabled {
  const key = reasonKey(field);
  const { stage } = field;
  const text = (name: ReasonKey) => fill(texts[name], { stage: stage?.name ?? '' });
  if (key === 'unlinkedCanLink') return { reason: text(key), request: 'link' };
  if (key) return { reason: text(key) };
  if (stage && !stage.update) {
    const { request } = stage;
    if (request === 'pending') return { reason: text('stagePending'), request };
    if (request === 'request') return { reason: text('stageRequest'), request };
    return { reason: text('stageLocked') };
  }
  if (field.inVariant?.update === false) return { reason: text('notInVariant') };
  return { reason: '' };
}

/** The reason text of 3.2.5's rules, or '' when they allow editing. */
export function disabledReason(field: FieldContext, texts: Texts = TEXTS): string {
  const key = reasonKey(field);
  return key ? fill(texts[key], { stage: field.stage?.name ?? '' }) : '';
}

type ReasonKey = keyof Texts;

/** Which of 3.2.5's rules forbids editing, as the key of its text; '' when none does. */
function reasonKey(field: FieldContext): ReasonKey | '' {
  const { cslp, schema, element } = field;
  const meta = schema?.field_metadata;
  if (!field.permissions.update) return field.stage && !field.stage.update ? 'stageRoleAndStage' : 'entryUpdate';
  if (meta?.updateRestrict) return 'readOnly';
  if (schema?.non_localizable && cslp.locale !== field.masterLocale) return 'localizedEntry';
  if (field.variant && cslp.locale !== field.locale) return 'notLocalized';
  if (meta?.isUnlinkedVariant) {
    // A 3.2.5 editor does not say whether the field may be linked: its text stays.
    const link = meta.canLinkVariant;
    if (link === undefined) return 'unlinkedVariant';
    return link ? 'unlinkedCanLink' : 'unlinkedCannotLink';
  }
  if (field.audienceMode) {
    const classes = element.classList;
    // 4.x: a lower-order variant's field is editable, unless its variant permission could not be resolved.
    if (classes.contains(VARIANT_CLASSES.lower) && field.inVariant?.error) return 'variantMismatch';
    if (classes.contains(VARIANT_CLASSES.disabled)) return 'variantMismatch';
    if (!classes.contains(VARIANT_CLASSES.variant) && !classes.contains(VARIANT_CLASSES.base)) return 'audienceMode';
  }
  return '';
}
