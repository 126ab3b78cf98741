/**
 * The builder's texts that 4.x added (hover toolbar, field-location apps) and the toolbar's button
 * names, in English here (3.2.5's and 4.4.1's words) and in
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
