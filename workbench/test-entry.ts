import type { EditedEntry } from './entries.ts';

/** The dishwasher page's template, as the workbench's tests edit it, holding `value`. */
export const dishwasherEntry = (value: Record<string, unknown>): EditedEntry => ({
  type: 'page_template',
  id: 'dishwasher',
  contentType: 'page_template',
  uid: 'dishwasher',
  locale: 'en-GB',
  value: { uid: 'dishwasher', ...value },
});
