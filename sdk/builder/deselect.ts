import { logger } from '../logger.ts';
import { type BuilderContext, FIELD_TYPE_ATTRIBUTE, textOf } from './context.ts';
import { BUILDER_ERRORS } from './errors.ts';

/**
 * The end of a focus, apart from its start (focus.ts): the toolbar's and the item actions' buttons
 * end it too, and focus.ts draws them.
 */

/** Ends the focus; `update-field` goes out when the field received input, unless `restore` puts the old text back. */
export function deselect(ctx: BuilderContext, { restore = false } = {}): void {
  ctx.focusRun++;
  const field = ctx.focused;
  if (!field) return;
  ctx.focused = null;
  // Read before the focus ends: a removed copy has no rendered text.
  const text = field.edit ? textOf(field.edit.target) : '';
  field.end();
  const { element } = field;
  if (field.editing && (!field.input || restore) && element.innerHTML !== field.initialHtml)
    element.innerHTML = field.initialHtml;
  if (field.editing && field.input && !restore)
    ctx.channel
      .send('update-field', { data: text, fieldMetadata: field.cslp })
      .catch((error: unknown) => logger.error(BUILDER_ERRORS.UPDATE_FAILED, error));
  element.removeAttribute(FIELD_TYPE_ATTRIBUTE);
  if (ctx.doc.activeElement === element) element.blur();
  ctx.ui.hideFocus();
}
