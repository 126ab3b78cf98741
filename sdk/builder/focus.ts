import type { CslpData } from '../cslp/parse.ts';
import { CSLP } from '../dom.ts';
import { logger } from '../logger.ts';
import { type BuilderContext, type Described, FIELD_TYPE_ATTRIBUTE, type Focused, ignore, textOf } from './context.ts';
import { deselect } from './deselect.ts';
import { BUILDER_ERRORS } from './errors.ts';
import { describe, editStack, labelStack, taggedTarget } from './field-info.ts';
import { INLINE_EDITABLE } from './field-type.ts';
import { hideHover } from './hover.ts';
import { editCopy, startEditing, wasLastEdited } from './inline-edit.ts';
import { renderAddButtons } from './instance-actions.ts';
import { tagOf } from './instances.ts';
import { forgetLabels, labelOf } from './label.ts';
import {
  type MouseClick,
  NEW_DISCUSSION,
  readApps,
  readDiscussion,
  readDisplayNames,
  readFieldData,
  readVariantStatus,
} from './protocol.ts';
import { isTruncated, needsPseudo } from './pseudo.ts';
import { renderToolbar } from './toolbar.ts';

/**
 * Focus: a click on a tagged field focuses it (overlay, toolbar, add buttons, `mouse-click` and
 * `focus-field`), starts in-place editing for text fields, and asks the editor for the field's
 * stored value, display names, variant status and discussion; each answer redraws the toolbar.
 * Escape, an overlay click or a new focus ends it, sending `update-field` if the field received input.
 */

/** Draws the toolbar of `field` (if still focused); its parent labels focus their field. */
export function redrawToolbar(ctx: BuilderContext, field: Focused): void {
  renderToolbar(ctx, field, (element, cslp) => void focus(ctx, element, cslp));
}

/** Asks the editor what the toolbar shows beyond the schema; each answer redraws it. */
function askAboutField(ctx: BuilderContext, field: Focused): void {
  const { channel } = ctx;
  const { element, cslp, schema } = field;
  channel
    .send(
      'get-field-display-names',
      labelStack(element, cslp).map((item) => item.cslp),
    )
    .then(readDisplayNames, () => null)
    .then((names) => {
      field.names = names;
      redrawToolbar(ctx, field);
    });
  channel
    .send('get-field-variant-status', cslp)
    .then(readVariantStatus)
    .then((status) => {
      field.status = status;
      redrawToolbar(ctx, field);
    })
    .catch(ignore);
  // 4.x: the label's content-type name and referring field, and the apps for this field.
  labelOf(ctx, element, cslp).then((label) => {
    field.label = label;
    redrawToolbar(ctx, field);
  });
  channel
    .send('field-location-data', { domEditStack: editStack(element, cslp) })
    .then(readApps)
    .then((apps) => {
      field.apps = apps;
      redrawToolbar(ctx, field);
    })
    .catch(ignore);
  if (schema)
    channel
      .send('get-discussion-id-for-comment-modal', { fieldMetadata: cslp, fieldSchema: schema })
      // A failed request still lets the user start a discussion.
      .then(readDiscussion, () => NEW_DISCUSSION)
      .then((discussion) => {
        field.discussion = discussion;
        redrawToolbar(ctx, field);
      });
}

/** Edits the field in place; moves to a copy if the page shows the stored value differently or it was edited last. */
function editInPlace(ctx: BuilderContext, field: Focused): void {
  const { element, cslp } = field;
  const lastEdited = wasLastEdited(element);
  startEditing(ctx, field, element);
  ctx.channel
    .send('get-field-data', {
      fieldMetadata: { content_type_uid: cslp.content_type_uid, entry_uid: cslp.entry_uid, locale: cslp.locale },
      entryPath: cslp.fieldPathWithIndex,
    })
    .then(readFieldData)
    .then((stored) => {
      // Too late once the user has typed into the field itself.
      const value = typeof stored === 'number' ? String(stored) : stored;
      if (ctx.focused !== field || field.input || typeof value !== 'string') return;
      if (lastEdited || needsPseudo(textOf(element), value, isTruncated(ctx.win, element))) editCopy(ctx, field, value);
    })
    .catch(ignore);
}

export async function focus(ctx: BuilderContext, element: HTMLElement, cslp: CslpData): Promise<void> {
  if (ctx.focused?.element === element) return;
  deselect(ctx);
  const run = ++ctx.focusRun;
  let described: Described;
  // A lock may have changed since the hover: focusing to edit asks again, names and references too.
  ctx.forgetLocks(cslp);
  forgetLabels(ctx);
  try {
    described = await describe(ctx, element, cslp);
  } catch (error) {
    // Without a schema there is no focus at all (focus-field).
    logger.error(BUILDER_ERRORS.SCHEMA_FAILED, error);
    return;
  }
  if (run !== ctx.focusRun || !element.isConnected || ctx.signal.aborted) return;
  const ended = new AbortController();
  const field: Focused = {
    ...described,
    element,
    cslp,
    editing: false,
    input: false,
    initialHtml: '',
    edit: null,
    pseudo: null,
    // Without a schema the editor has no field to discuss.
    discussion: described.schema ? undefined : null,
    names: undefined,
    status: undefined,
    label: undefined,
    apps: [],
    signal: ended.signal,
    end: () => ended.abort(),
  };
  ctx.focused = field;
  element.setAttribute(FIELD_TYPE_ATTRIBUTE, described.type);
  hideHover(ctx);
  ctx.ui.showFocus(element, Boolean(described.reason));
  redrawToolbar(ctx, field);
  renderAddButtons(ctx, field);
  // For the click-to-toolbar time in the browser tests and in people's profiles.
  ctx.win.performance.mark('vitrine-builder:toolbar');
  ctx.channel.send('focus-field', { DOMEditStack: editStack(element, cslp) }).catch(ignore);
  if (INLINE_EDITABLE.has(described.type) && !described.reason) editInPlace(ctx, field);
  askAboutField(ctx, field);
}

/** Clicks focus fields; Escape and overlay clicks end the focus; Space on a toolbar button types a space. */
export function startFocus(ctx: BuilderContext): void {
  const { win, doc, ui, config, channel, signal } = ctx;
  win.addEventListener(
    'click',
    (event) => {
      const target = event.target;
      if (event.altKey || ui.owns(target)) return;
      if (target instanceof win.Element && target.closest('[data-studio-ui="true"]')) return;
      // Collaboration takes clicks for threads (mouse-click).
      if (config.collab.enable) return;
      const element = taggedTarget(ctx, event);
      const cslp = element ? tagOf(element) : null;
      if (element) win.performance.mark('vitrine-builder:click');
      // An invalid tag is no field (4.4.1's isValidCslp): the editor hears of a click on nothing.
      const click: MouseClick = {
        cslpData: cslp ? (element?.getAttribute(CSLP) ?? undefined) : undefined,
        fieldMetadata: cslp ?? undefined,
      };
      channel.send('mouse-click', click).catch(ignore);
      const link = target instanceof win.Element ? target.closest('a[href]') : null;
      if (element || link) {
        event.preventDefault();
        event.stopPropagation();
      }
      if (element && cslp) void focus(ctx, element, cslp);
    },
    { capture: true, signal },
  );
  ui.root.addEventListener(
    'click',
    (event) => {
      if ((event.target as Element | null)?.classList.contains('visual-builder__overlay')) deselect(ctx);
    },
    { signal },
  );
  ui.root.addEventListener(
    'keydown',
    (event) => {
      const target = event.target as Element | null;
      const edit = ctx.focused?.edit;
      if ((event as KeyboardEvent).key !== ' ' || !edit || target?.tagName !== 'BUTTON') return;
      event.preventDefault();
      edit.target.focus();
      doc.execCommand('insertText', false, ' ');
    },
    { signal },
  );
  win.addEventListener(
    'keydown',
    (event) => {
      if (event.key === 'Escape' && ctx.focused) deselect(ctx);
    },
    { capture: true, signal },
  );
}
