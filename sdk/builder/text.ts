/**
 * Every text the builder shows (toolbar, disabled reasons, workflow-stage locks, revert menu,
 * hover toolbar, field-location apps, add buttons, "Start Editing", the field-type names beside the cursor), in English here (3.2.5's and
 * 4.4.1's words) and in
 * the page's language when the page configuration brings them (`messages`, written by the server
 * from `locales/` under `preview.builder.*`). A message's `{name}` arguments are filled in here:
 * the server formats the ICU message with each argument standing for itself.
 */

import type { PreviewTextKey } from '../../common/preview-page-config.ts';

export const TEXTS: Record<PreviewTextKey, string> = {
  referencedFrom: 'Referenced from {field} in {contentType}',
  apps: 'Field apps',
  moreApps: 'More apps',
  searchApps: 'Search for apps',
  noApps: 'No matching results found!',
  moveUp: 'Move up',
  moveDown: 'Move down',
  moveLeft: 'Move left',
  moveRight: 'Move right',
  edit: 'Edit',
  replace: 'Replace',
  form: 'Form',
  viewComments: 'View comments',
  addComment: 'Add comment',
  delete: 'Delete',
  entryUpdate: 'You do not have permission to edit this entry',
  readOnly: 'You have only read access to this field',
  localizedEntry: 'Editing this field is restricted in localized entries',
  notLocalized: 'This field is not editable as it is not localized',
  unlinkedVariant: 'This field is not editable as it is not linked to the selected variant',
  audienceMode: 'Open an Experience from Audience widget to start editing',
  variantMismatch: "This field is not editable as it doesn't match the selected variant",
  notInVariant: 'This field does not exist in the selected variant',
  unlinkedCanLink: 'This field is not editable as it is not linked to the selected variant.',
  unlinkedCannotLink:
    'This field is not editable as it is not linked to the selected variant. Contact your stack admin or owner to link it.',
  stageLocked: "You do not have Edit access to this entry on the '{stage}' workflow stage",
  stageRoleAndStage:
    "Editing is restricted for your role or by the rules for the '{stage}' stage. Contact your admin for edit access.",
  stageRequest: "You do not have the edit access to this entry on the '{stage}' workflow stage.",
  stagePending:
    "You do not have the edit access to this entry on the '{stage}' workflow stage. Your request has been sent and is awaiting approval.",
  requestAccess: 'Request Edit Access',
  linkVariant: 'Click here to link a variant',
  variantRevert: 'Variant Revert',
  revertBase: 'Revert to base entry value',
  revertAdded: 'Revert added instances',
  restoreDeleted: 'Restore deleted instances',
  resetCustomizations: 'Reset field level customizations',
  restoreSorted: 'Restore sorted instances',
  invalidTag: 'Invalid CSLP tag',
  invalidTagDetail: 'The CSLP is invalid or incorrectly generated.',
  error: 'Error',
  addSection: 'Add section',
  maxInstances: 'Max {max} instances allowed',
  noInstances: 'There are no {name} on this page yet.',
  startEditing: 'Start Editing',
  typeSingleLine: 'Single line',
  typeMultiLine: 'Multi line',
  typeNumber: 'Number',
  typeRichText: 'Rich text',
  typeMarkdown: 'Markdown',
  typeSelect: 'Select',
  typeUrl: 'URL',
  typeLink: 'Link',
  typeDate: 'Date',
  typeBoolean: 'Boolean',
  typeFile: 'File',
  typeReference: 'Reference',
  typeGroup: 'Group',
  typeGlobal: 'Global',
  typeBlocks: 'Blocks',
  typeBlock: 'Block',
  typeCustom: 'Custom',
  typeTaxonomy: 'Taxonomy',
  typeExperience: 'Experience',
  typeLoading: '…',
};

export type Texts = typeof TEXTS;

/** The texts, each from `messages` where it is a string. */
export function textsOf(messages: Record<string, unknown> | undefined): Texts {
  const texts = { ...TEXTS };
  for (const key of Object.keys(TEXTS) as PreviewTextKey[]) {
    const message = messages?.[key];
    if (typeof message === 'string' && message !== '') texts[key] = message;
  }
  return texts;
}

/** `{name}` arguments replaced by their values; unknown ones are left as written. */
export const fill = (text: string, args: Record<string, string>): string =>
  text.replace(/\{(\w+)\}/g, (whole, name: string) => args[name] ?? whole);
