import type { CslpData } from '../cslp/parse.ts';
import { type BuilderContext, type Focused, ignore, lastSegment } from './context.ts';
import { deselect } from './deselect.ts';
import { editStack, labelStack } from './field-info.ts';
import { type FieldSchema, MODAL_EDITED, REPLACEABLE } from './field-type.ts';
import { deleteInstance, moveInstance } from './instance-actions.ts';
import { addDirection, fieldElement, instancesOf, isInstance, parentTag } from './instances.ts';
import { referencedText } from './label.ts';
import { type FieldApp, readLinked, type VariantStatus } from './protocol.ts';
import { type Texts, textsOf } from './text.ts';
import type { AppButton, ToolbarButton } from './ui.ts';

/**
 * The focused field's toolbar: what it offers for the field (move, edit, replace, form, comments,
 * delete, variant revert) and its labels; drawn by ui.ts, drawn again whenever the editor answers
 * one of the questions asked on focus.
 */

const REVERT_ACTIONS: [keyof VariantStatus, string, keyof Texts][] = [
  ['isBaseModified', 'revert_to_base_entry_value', 'revertBase'],
  ['isAddedInstances', 'revert_added_instances', 'revertAdded'],
  ['isDeletedInstances', 'restore_deleted_instances', 'restoreDeleted'],
  ['fieldLevelCustomizations', 'reset_field_level_customizations', 'resetCustomizations'],
  ['isOrderChanged', 'restore_sorted_instances', 'restoreSorted'],
];

const PREFIX = 'visual-builder__focused-toolbar__multiple-field-toolbar__';

function replace({ channel }: BuilderContext, field: Focused): void {
  const { cslp } = field;
  if (field.type === 'file') {
    channel.send('open-asset-modal', { fieldMetadata: cslp }).catch(ignore);
    return;
  }
  channel
    .send('open-reference-modal', {
      entry_uid: cslp.entry_uid,
      content_type_uid: cslp.content_type_uid,
      locale: cslp.locale,
      fieldPath: cslp.fieldPath,
      fieldPathWithIndex: cslp.fieldPathWithIndex,
      entryPath: isInstance(cslp) ? cslp.instance.fieldPathWithIndex : cslp.fieldPathWithIndex,
    })
    .catch(ignore);
}

function moveButtons(ctx: BuilderContext, field: Focused, texts: Texts): ToolbarButton[] {
  const fieldTag = parentTag(field.cslp);
  const items = instancesOf(ctx.doc, fieldTag);
  const index = field.cslp.multipleFieldMetadata.index;
  const across = addDirection(fieldElement(ctx.doc, fieldTag, items), items) === 'horizontal';
  return [
    {
      id: `${PREFIX}move-left-button`,
      label: across ? texts.moveLeft : texts.moveUp,
      glyph: across ? '←' : '↑',
      disabled: index <= 0,
      run: () => moveInstance(ctx, field, 'previous'),
    },
    {
      id: `${PREFIX}move-right-button`,
      label: across ? texts.moveRight : texts.moveDown,
      glyph: across ? '→' : '↓',
      disabled: index >= items.length - 1,
      run: () => moveInstance(ctx, field, 'next'),
    },
  ];
}

export function toolbarButtons(ctx: BuilderContext, field: Focused): ToolbarButton[] {
  const { channel } = ctx;
  const { cslp, type } = field;
  const texts = textsOf(ctx.config.messages);
  const instance = isInstance(cslp);
  const buttons: ToolbarButton[] = instance ? moveButtons(ctx, field, texts) : [];
  if (MODAL_EDITED.has(type))
    buttons.push({
      id: `${PREFIX}edit-button`,
      label: texts.edit,
      glyph: '✎',
      run: () => void channel.send('open-field-edit-modal', { fieldMetadata: cslp }).catch(ignore),
    });
  // The whole of a multiple file or reference field has nothing single to replace.
  if (REPLACEABLE.has(type) && (instance || !field.schema?.multiple))
    buttons.push({
      id: `visual-builder-replace-${type}`,
      label: texts.replace,
      glyph: '⇄',
      run: () => replace(ctx, field),
    });
  buttons.push({
    id: 'visual-builder-form',
    label: texts.form,
    glyph: '☰',
    run: () =>
      void channel
        .send('focus-field', { DOMEditStack: editStack(field.element, cslp), toggleVisibility: true })
        .catch(ignore),
  });
  // Comments exist for the field unless the editor said there are none.
  if (field.discussion !== null)
    buttons.push({
      id: `${PREFIX}comment-button`,
      label: field.discussion && field.discussion.uid !== 'new' ? texts.viewComments : texts.addComment,
      glyph: field.discussion ? '💬' : '…',
      disabled: !field.discussion,
      run: () =>
        void channel
          .send('open-field-comment-modal', {
            fieldMetadata: cslp,
            discussion: field.discussion,
            fieldSchema: field.schema,
          })
          .catch(ignore),
    });
  if (instance)
    buttons.push({
      id: `${PREFIX}delete-button`,
      label: texts.delete,
      glyph: '🗑',
      run: () => deleteInstance(ctx, field),
    });
  return buttons;
}

function revertActions(ctx: BuilderContext, field: Focused, texts: Texts): { label: string; run(): void }[] {
  const { status, cslp } = field;
  if (!status || !(cslp.variant || ctx.state.variant)) return [];
  return REVERT_ACTIONS.filter(([flag]) => status[flag]).map(([, action, label]) => ({
    label: texts[label],
    run: () =>
      void ctx.channel
        .send('send-variant-revert-action-trigger', {
          fieldDataName: cslp.fieldPathWithIndex,
          action,
          euid: cslp.entry_uid,
          ct_uid: cslp.content_type_uid,
          locale: cslp.locale,
        })
        .catch(ignore),
  }));
}

/** Field-location apps: choosing one sends 4.4.1's `field-location-selected-app` (note its `DomEditStack`). */
function appButtons(ctx: BuilderContext, field: Focused): AppButton[] {
  return field.apps.map((app: FieldApp) => ({
    title: app.title,
    icon: app.icon,
    run: (position) =>
      void ctx.channel
        .send('field-location-selected-app', { app, position, DomEditStack: editStack(field.element, field.cslp) })
        .catch(ignore),
  }));
}

/**
 * 4.x "Click here to link a variant": the editor's link dialog; once it says the field is linked,
 * the schemas are asked again (they carry `isUnlinkedVariant`) and the field is focused anew.
 */
async function linkVariant(
  ctx: BuilderContext,
  field: Focused,
  focus: (element: HTMLElement, cslp: CslpData) => void,
): Promise<void> {
  const answer = await ctx.channel
    .send('open-link-variant-modal', { contentTypeUid: field.cslp.content_type_uid })
    .catch(ignore);
  if (!readLinked(answer)) return;
  ctx.forgetSchemas();
  if (ctx.focused === field) deselect(ctx, { restore: true });
  if (field.element.isConnected) focus(field.element, field.cslp);
}

/** Draws the toolbar of `field` if it is still the focused one; a parent's label calls `focusParent`. */
export function renderToolbar(
  ctx: BuilderContext,
  field: Focused,
  focusParent: (element: HTMLElement, cslp: CslpData) => void,
): void {
  if (ctx.focused !== field) return;
  const texts = textsOf(ctx.config.messages);
  const name = (cslp: CslpData, schema?: FieldSchema) =>
    field.names?.[cslp.cslpValue] ?? schema?.display_name ?? lastSegment(cslp.fieldPath || cslp.content_type_uid);
  ctx.ui.renderToolbar({
    label: name(field.cslp, field.schema),
    icon: field.type || 'empty',
    parents: labelStack(field.element, field.cslp)
      .slice(1)
      .map((parent) => ({ label: name(parent.cslp), run: () => focusParent(parent.element, parent.cslp) })),
    reason: field.reason,
    requestAccess:
      field.request === 'request'
        ? () =>
            void ctx.channel
              .send('open-request-edit-access', {
                entryUid: field.cslp.entry_uid,
                contentTypeUid: field.cslp.content_type_uid,
                locale: field.cslp.locale,
                variantUid: field.cslp.variant,
              })
              .catch(ignore)
        : undefined,
    linkVariant: field.request === 'link' ? () => void linkVariant(ctx, field, focusParent) : undefined,
    // No schema, or no display name once the editor answered: the tag is invalid.
    invalid: !field.schema || field.names === null || (field.names !== undefined && !field.names[field.cslp.cslpValue]),
    buttons: toolbarButtons(ctx, field),
    revert: revertActions(ctx, field, texts),
    contentType: field.label?.contentType ?? '',
    referenced: referencedText(texts, field.label),
    apps: appButtons(ctx, field),
    texts,
  });
}
