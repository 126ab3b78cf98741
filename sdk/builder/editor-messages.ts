import { onAbort } from '../abort.ts';
import { CSLP } from '../dom.ts';
import type { BuilderContext } from './context.ts';
import { deselect } from './deselect.ts';
import { VARIANT_CLASSES } from './disabled.ts';
import { redrawToolbar } from './focus.ts';
import { hideHover } from './hover.ts';
import { tagOf } from './instances.ts';
import {
  readAudienceMode,
  readDeletePath,
  readDiscussionUpdate,
  readDraftFields,
  readHideFocusOverlay,
  readLocale,
  readOnlyHighlighted,
  readScrollStopped,
  readScrollToField,
  readVariantFields,
  readVariantId,
} from './protocol.ts';
import { markVariant, VARIANT_OUTLINE_CLASS } from './variants.ts';

/** What the editor tells the builder: focus changes, field markings, and the editor's view of the page. */

const DRAFT_CLASS = 'visual-builder__draft-field';

export const taggedElements = (doc: Document) => Array.from(doc.querySelectorAll<HTMLElement>(`[${CSLP}]`));

export function answerEditor(ctx: BuilderContext): void {
  const { channel, config, doc, state } = ctx;
  const tagged = () => taggedElements(doc);
  channel.on('hide-focus-overlay', (data) => {
    const { noTrigger, fromCollab } = readHideFocusOverlay(data);
    // The editor switches to comments: collaboration takes over the page, paused until it says go.
    if (fromCollab) {
      config.collab.enable = true;
      config.collab.pauseFeedback = true;
      hideHover(ctx);
    }
    deselect(ctx, { restore: noTrigger });
  });
  channel.on('update-discussion-id-for-focus-field', (data) => {
    const update = readDiscussionUpdate(data);
    const field = ctx.focused;
    if (
      !update ||
      !field ||
      update.entryId !== field.cslp.entry_uid ||
      update.contentTypeId !== field.cslp.content_type_uid ||
      update.fieldPath !== field.cslp.fieldPathWithIndex
    )
      return;
    field.discussion = update.discussion;
    redrawToolbar(ctx, field);
  });
  channel.on('scroll-to-view-field-by-cslp-value', (data) => {
    const tag = readScrollToField(data);
    tagged()
      .find((element) => element.getAttribute(CSLP) === tag)
      ?.scrollIntoView({ behavior: 'smooth', block: 'center' });
  });
  channel.on('get-entries-in-current-page', () => {
    const entries = new Map<string, { entryUid: string; contentTypeUid: string; locale: string }>();
    for (const element of tagged()) {
      const cslp = tagOf(element);
      if (cslp)
        entries.set(cslp.entry_uid, {
          entryUid: cslp.entry_uid,
          contentTypeUid: cslp.content_type_uid,
          locale: cslp.locale,
        });
    }
    return { entriesInCurrentPage: [...entries.values()] };
  });
  channel.on('show-draft-fields', (data) => {
    const fields = new Set(readDraftFields(data));
    for (const element of tagged()) element.classList.toggle(DRAFT_CLASS, fields.has(element.getAttribute(CSLP) ?? ''));
  });
  channel.on('remove-draft-fields', () => {
    for (const element of tagged()) element.classList.remove(DRAFT_CLASS);
  });
  channel.on('show-variant-fields', (data) => {
    const fields = readVariantFields(data);
    if (!fields) return;
    // 4.x keeps both: page changes re-mark with them, lower-order fields follow the order.
    state.highlight = fields.highlight;
    state.variantOrder = fields.order;
    for (const element of tagged()) markVariant(element, fields.variant, fields.highlight, fields.order);
  });
  channel.on('remove-variant-fields', (data) => {
    state.highlight = false;
    const classes = readOnlyHighlighted(data)
      ? [VARIANT_OUTLINE_CLASS]
      : [VARIANT_OUTLINE_CLASS, ...Object.values(VARIANT_CLASSES)];
    for (const element of tagged()) element.classList.remove(...classes);
  });
  channel.on('get-variant-id', (data) => {
    state.variant = readVariantId(data);
    ctx.forgetSchemas();
    remarkVariantFields(ctx);
  });
  channel.on('get-locale', (data) => {
    state.locale = readLocale(data) ?? state.locale;
  });
  channel.on('set-audience-mode', (data) => {
    state.audienceMode = readAudienceMode(data);
  });
  // 4.x: an app the editor opens over the page stops the page scrolling under it until it closes.
  const overflow = doc.body.style.overflow;
  channel.on('toggle-scroll', (data) => {
    doc.body.style.overflow = readScrollStopped(data) ? 'hidden' : overflow;
  });
  onAbort(ctx.signal, () => {
    doc.body.style.overflow = overflow;
  });
  channel.on('delete-instance', (data) => {
    if (ctx.focused && readDeletePath(data) === ctx.focused.cslp.instance.fieldPathWithIndex)
      deselect(ctx, { restore: true });
  });
}

/**
 * 4.4.1 marks the page again when the editor selects a variant (`get-variant-id`), with the order
 * and highlight it last heard; only for a 4.x editor, whose marks a 3.2.5 editor never asked for.
 */
export function remarkVariantFields(ctx: BuilderContext): void {
  const { state } = ctx;
  if (!state.fourX || !state.variant) return;
  for (const element of taggedElements(ctx.doc))
    markVariant(element, state.variant, state.highlight, state.variantOrder);
}
