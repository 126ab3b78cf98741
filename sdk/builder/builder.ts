import type { Config } from '../config/types.ts';
import { type CslpData, parseCslp } from '../cslp/parse.ts';
import { debounce } from '../debounce.ts';
import { CSLP, LAYER_OWNED, type PageWindow } from '../dom.ts';
import { logger } from '../logger.ts';
import type { Channel } from '../transport/channel.ts';
import { disabledReason, VARIANT_CLASSES } from './disabled.ts';
import { BUILDER_ERRORS } from './errors.ts';
import {
  type FieldSchema,
  type FieldType,
  fieldType,
  INLINE_EDITABLE,
  MODAL_EDITED,
  REPLACEABLE,
} from './field-type.ts';
import { addDirection, fieldElement, instancesOf, isInstance, parentTag, tagOf } from './instances.ts';
import { blocksKey, pastedText } from './keyboard.ts';
import {
  type Direction,
  type Discussion,
  type MouseClick,
  NEW_DISCUSSION,
  type Permissions,
  readAudienceMode,
  readDeletePath,
  readDiscussion,
  readDiscussionUpdate,
  readDisplayNames,
  readDraftFields,
  readFieldData,
  readHideFocusOverlay,
  readLocale,
  readOnlyHighlighted,
  readPermissions,
  readSchemaReply,
  readScrollToField,
  readVariantFields,
  readVariantId,
  readVariantPatch,
  readVariantStatus,
  type SchemaMap,
  VARIANT_PATCH,
  type VariantPatch,
  type VariantStatus,
  VB_RECEIVED,
  VB_SENT,
} from './protocol.ts';
import { createPseudo, isTruncated, needsPseudo, type Pseudo } from './pseudo.ts';
import { throttle } from './throttle.ts';
import { type AddButtonModel, type BuilderUi, createUi, type ToolbarButton } from './ui.ts';
import { markVariant, VARIANT_OUTLINE_CLASS } from './variants.ts';

/**
 * The visual builder (issue 11): a lazy chunk the core starts once the editor has said the window
 * is a builder (reference b.2). Hover highlights a tagged field, a click focuses it (overlay,
 * toolbar, `mouse-click` / `focus-field`), text fields are edited in place with throttled
 * `sync-field`, plain-text paste and a final `update-field` on deselect (on a pseudo-editable copy
 * when the page formats the value), multiple fields get add, move and delete, the toolbar opens the field's
 * comments, and variant patches re-mark fields. Every listener and observer is undone by `destroy`.
 */

export interface BuilderOptions {
  win: PageWindow;
  config: Config;
  /** The visual-builder channel the core opened. */
  channel: Channel;
  /** The core's live-preview channel, for `variant-patch-update` (reference b.3). */
  livePreview?: Channel;
}

export interface Builder {
  destroy(): void;
}

export type StartBuilder = (options: BuilderOptions) => Builder;

export { showStartEditing } from './start-editing.ts';

/** Spec section 9. */
const SYNC_THROTTLE_MS = 300;
const HOVER_DEBOUNCE_MS = 10;
const PAGE_MUTATION_DEBOUNCE_MS = 100;
const INPUT_REPOSITION_MS = 200;
const PASTE_DEBOUNCE_MS = 100;
const NEW_ITEM_CLICK_MS = 350;
const OBSERVER_TIMEOUT_MS = 4000;
const VARIANT_OBSERVER_TIMEOUT_MS = 8000;
/** Hover proximity margin: 10 % of the element's size, at most 30 px. */
const PROXIMITY_SHARE = 0.1;
const PROXIMITY_MAX_PX = 30;
const FIELD_TYPE_ATTRIBUTE = 'data-cslp-field-type';
const DRAFT_CLASS = 'visual-builder__draft-field';
/** Set by the site on an empty multiple field (reference f.1); the builder puts a placeholder in it. */
const EMPTY_PARENT_CLASS = 'visual-builder__empty-block-parent';
const EMPTY_BLOCK_CLASS = 'visual-builder__empty-block';

const REVERT_ACTIONS: [keyof VariantStatus, string, string][] = [
  ['isBaseModified', 'revert_to_base_entry_value', 'Revert to base entry value'],
  ['isAddedInstances', 'revert_added_instances', 'Revert added instances'],
  ['isDeletedInstances', 'restore_deleted_instances', 'Restore deleted instances'],
  ['fieldLevelCustomizations', 'reset_field_level_customizations', 'Reset field level customizations'],
  ['isOrderChanged', 'restore_sorted_instances', 'Restore sorted instances'],
];

interface Described {
  schema: FieldSchema | undefined;
  type: FieldType;
  reason: string;
}

interface Focused extends Described {
  element: HTMLElement;
  cslp: CslpData;
  editing: boolean;
  input: boolean;
  initialHtml: string;
  /** What takes the typing: the field, or its pseudo-editable copy; and how to stop. */
  edit: { target: HTMLElement; stop(): void } | null;
  pseudo: Pseudo | null;
  /** The field's comment thread: undefined while asked for, null when the editor offers none. */
  discussion: Discussion | null | undefined;
  /** Display names by tag once the editor answered; null after an error answer. */
  names: Record<string, string> | null | undefined;
  status: VariantStatus | undefined;
  cleanups: (() => void)[];
}

const ignore = (error: unknown) => logger.debug(error);
const prefixOf = (cslp: CslpData) => `${cslp.content_type_uid}.${cslp.entry_uid}.${cslp.locale}`;
const lastSegment = (path: string) => path.slice(path.lastIndexOf('.') + 1);

/** Text as the editor stores it: `innerText` turns `<br>` into line breaks (reference b.5, update-field). */
function textOf(element: HTMLElement): string {
  const text = (element as { innerText?: unknown }).innerText;
  return typeof text === 'string' ? text : (element.textContent ?? '');
}

export const startBuilder: StartBuilder = ({ win, config, channel, livePreview }) => {
  const doc = win.document;
  const ui: BuilderUi = createUi(win);
  const cleanups: (() => void)[] = [() => ui.destroy()];
  const schemas = new Map<string, Promise<SchemaMap>>();
  const permissions = new Map<string, Promise<Permissions>>();
  const state = { locale: 'en-us', variant: undefined as string | undefined, audienceMode: false };
  let hovered: { element: Element; described?: Described } | null = null;
  let focused: Focused | null = null;
  let focusRun = 0;

  const listen = <K extends keyof WindowEventMap>(
    target: Window | Document | Element,
    type: K,
    handler: (event: WindowEventMap[K]) => void,
    options?: AddEventListenerOptions,
  ) => {
    target.addEventListener(type, handler as EventListener, options);
    cleanups.push(() => target.removeEventListener(type, handler as EventListener, options));
  };

  // --- What the editor knows about a field -------------------------------------------------

  function schemaFor(contentTypeUid: string): Promise<SchemaMap> {
    let schema = schemas.get(contentTypeUid);
    if (!schema) {
      schema = channel.send(VB_SENT.getFieldSchema, { contentTypeUid }).then(readSchemaReply);
      // A failed request is not cached: the next hover asks again.
      schema.catch(() => schemas.delete(contentTypeUid));
      schemas.set(contentTypeUid, schema);
    }
    return schema;
  }

  function permissionsFor(cslp: CslpData): Promise<Permissions> {
    const key = `${cslp.entry_uid}.${cslp.content_type_uid}.${cslp.locale}`;
    let answer = permissions.get(key);
    if (!answer) {
      answer = channel
        .send(VB_SENT.getPermissions, {
          type: 'entry',
          entryUid: cslp.entry_uid,
          contentTypeUid: cslp.content_type_uid,
          locale: cslp.locale,
        })
        .then(readPermissions, (error: unknown) => {
          logger.error(BUILDER_ERRORS.PERMISSIONS_FAILED, error);
          return readPermissions(undefined);
        });
      permissions.set(key, answer);
    }
    return answer;
  }

  async function describe(element: Element, cslp: CslpData): Promise<Described> {
    const [map, allowed] = await Promise.all([schemaFor(cslp.content_type_uid), permissionsFor(cslp)]);
    const schema = map[cslp.fieldPath];
    const reason = disabledReason({
      cslp,
      schema,
      permissions: allowed,
      element,
      masterLocale: config.stackDetails.masterLocale,
      locale: state.locale,
      variant: state.variant,
      audienceMode: state.audienceMode,
    });
    return { schema, type: fieldType(schema), reason };
  }

  /** The first tagged element on the event's path, stopping at `<body>`; the builder's own UI is not the page. */
  function taggedTarget(event: Event): HTMLElement | null {
    for (const node of event.composedPath()) {
      if (node === doc.body || node === ui.host) return null;
      if (node instanceof win.HTMLElement && node.hasAttribute(CSLP)) return node;
    }
    return null;
  }

  /** Reference b.7: the clicked field and its tagged ancestors of other entries, outermost first. */
  function editStack(element: Element, cslp: CslpData): CslpData[] {
    const stack = [cslp];
    for (
      let node = element.parentElement?.closest(`[${CSLP}]`);
      node;
      node = node.parentElement?.closest(`[${CSLP}]`)
    ) {
      const parent = tagOf(node);
      if (parent && stack[0] && prefixOf(parent) !== prefixOf(stack[0])) stack.unshift(parent);
    }
    return stack;
  }

  /** The field and up to two tagged ancestors, unique by tag (reference b.5, get-field-display-names). */
  function labelStack(element: Element, cslp: CslpData): { element: HTMLElement; cslp: CslpData }[] {
    const stack = [{ element: element as HTMLElement, cslp }];
    for (
      let node = element.parentElement?.closest(`[${CSLP}]`);
      node && stack.length < 3;
      node = node.parentElement?.closest(`[${CSLP}]`)
    ) {
      const parent = tagOf(node);
      if (parent && !stack.some((item) => item.cslp.cslpValue === parent.cslpValue))
        stack.push({ element: node as HTMLElement, cslp: parent });
    }
    return stack;
  }

  // --- Hover ------------------------------------------------------------------------------

  function nearby(element: Element, x: number, y: number): boolean {
    const r = element.getBoundingClientRect();
    const dx = Math.min(r.width * PROXIMITY_SHARE, PROXIMITY_MAX_PX);
    const dy = Math.min(r.height * PROXIMITY_SHARE, PROXIMITY_MAX_PX);
    return x >= r.left - dx && x <= r.right + dx && y >= r.top - dy && y <= r.bottom + dy;
  }

  /** The last pointer position and its tagged element, read while the event is dispatched (composedPath is empty later). */
  let lastMove: { clientX: number; clientY: number; element: HTMLElement | null } | undefined;
  let hoverTimer: ReturnType<typeof setTimeout> | undefined;

  function hideHover(): void {
    hovered = null;
    ui.hideHover();
    ui.hideCursor();
  }

  function runHover(): void {
    hoverTimer = undefined;
    const event = lastMove;
    if (!event) return;
    let element: Element | null = event.element;
    const previous = hovered?.element;
    // Leaving a field for its container within the proximity margin keeps the field (spec section 9).
    if (
      previous?.isConnected &&
      element !== previous &&
      (!element || element.contains(previous)) &&
      nearby(previous, event.clientX, event.clientY)
    )
      element = previous;
    if (!element || element === focused?.element) {
      hideHover();
      return;
    }
    const cslp = tagOf(element);
    if (element !== previous) {
      hovered = { element };
      ui.showHover(element, false);
      if (!cslp) ui.showCursor(event.clientX, event.clientY, 'empty', true);
      else {
        const current = hovered;
        describe(element, cslp)
          .then((described) => {
            if (hovered !== current) return;
            current.described = described;
            ui.showHover(element, Boolean(described.reason));
            const at = lastMove ?? event;
            ui.showCursor(at.clientX, at.clientY, described.type || 'empty', Boolean(described.reason));
          })
          .catch(ignore);
      }
    }
    const described = hovered?.described;
    ui.showCursor(
      event.clientX,
      event.clientY,
      cslp ? (described ? described.type || 'empty' : 'loading') : 'empty',
      described ? Boolean(described.reason) : !cslp,
    );
  }

  listen(win, 'mousemove', (event) => {
    // Collaboration has the pointer while it is on, paused or not (reference b.5, hide-focus-overlay).
    if (config.collab.enable) {
      if (hovered) hideHover();
      return;
    }
    lastMove = { clientX: event.clientX, clientY: event.clientY, element: taggedTarget(event) };
    hoverTimer ??= setTimeout(runHover, HOVER_DEBOUNCE_MS);
  });
  listen(doc.documentElement, 'mouseleave', () => {
    clearTimeout(hoverTimer);
    hoverTimer = undefined;
    hideHover();
  });
  cleanups.push(() => clearTimeout(hoverTimer));

  // --- Focus, toolbar and editing ---------------------------------------------------------

  function toolbarButtons(field: Focused): ToolbarButton[] {
    const { cslp, type } = field;
    const buttons: ToolbarButton[] = [];
    const instance = isInstance(cslp);
    const prefix = 'visual-builder__focused-toolbar__multiple-field-toolbar__';
    if (instance) {
      const fieldTag = parentTag(cslp);
      const items = instancesOf(doc, fieldTag);
      const index = cslp.multipleFieldMetadata.index;
      const across = addDirection(fieldElement(doc, fieldTag, items), items) === 'horizontal';
      buttons.push(
        {
          id: `${prefix}move-left-button`,
          label: across ? 'Move left' : 'Move up',
          glyph: across ? '←' : '↑',
          disabled: index <= 0,
          run: () => moveInstance(field, 'previous'),
        },
        {
          id: `${prefix}move-right-button`,
          label: across ? 'Move right' : 'Move down',
          glyph: across ? '→' : '↓',
          disabled: index >= items.length - 1,
          run: () => moveInstance(field, 'next'),
        },
      );
    }
    if (MODAL_EDITED.has(type))
      buttons.push({
        id: `${prefix}edit-button`,
        label: 'Edit',
        glyph: '✎',
        run: () => void channel.send(VB_SENT.openFieldEditModal, { fieldMetadata: cslp }).catch(ignore),
      });
    // The whole of a multiple file or reference field has nothing single to replace.
    if (REPLACEABLE.has(type) && (instance || !field.schema?.multiple))
      buttons.push({
        id: `visual-builder-replace-${type}`,
        label: 'Replace',
        glyph: '⇄',
        run: () => replace(field),
      });
    buttons.push({
      id: 'visual-builder-form',
      label: 'Form',
      glyph: '☰',
      run: () =>
        void channel
          .send(VB_SENT.focusField, { DOMEditStack: editStack(field.element, cslp), toggleVisibility: true })
          .catch(ignore),
    });
    // Comments exist for the field unless the editor said there are none (reference b.5).
    if (field.discussion !== null)
      buttons.push({
        id: `${prefix}comment-button`,
        label: field.discussion && field.discussion.uid !== 'new' ? 'View comments' : 'Add comment',
        glyph: field.discussion ? '💬' : '…',
        disabled: !field.discussion,
        run: () =>
          void channel
            .send(VB_SENT.openCommentModal, {
              fieldMetadata: cslp,
              discussion: field.discussion,
              fieldSchema: field.schema,
            })
            .catch(ignore),
      });
    if (instance)
      buttons.push({
        id: `${prefix}delete-button`,
        label: 'Delete',
        glyph: '🗑',
        run: () => deleteInstance(field),
      });
    return buttons;
  }

  function replace(field: Focused): void {
    const { cslp } = field;
    if (field.type === 'file') {
      channel.send(VB_SENT.openAssetModal, { fieldMetadata: cslp }).catch(ignore);
      return;
    }
    channel
      .send(VB_SENT.openReferenceModal, {
        entry_uid: cslp.entry_uid,
        content_type_uid: cslp.content_type_uid,
        locale: cslp.locale,
        fieldPath: cslp.fieldPath,
        fieldPathWithIndex: cslp.fieldPathWithIndex,
        entryPath: isInstance(cslp) ? cslp.instance.fieldPathWithIndex : cslp.fieldPathWithIndex,
      })
      .catch(ignore);
  }

  const instancePath = (cslp: CslpData) => `${cslp.fieldPathWithIndex}.${cslp.multipleFieldMetadata.index}`;

  function moveInstance(field: Focused, direction: Direction): void {
    channel
      .send(VB_SENT.moveInstance, { data: instancePath(field.cslp), direction, fieldMetadata: field.cslp })
      .catch(ignore)
      .finally(() => {
        if (focused === field) deselect();
      });
  }

  function deleteInstance(field: Focused): void {
    channel
      .send(VB_SENT.deleteInstance, { data: instancePath(field.cslp), fieldMetadata: field.cslp })
      .catch(ignore)
      .finally(() => {
        if (focused === field) deselect();
      });
  }

  function renderToolbar(field: Focused): void {
    if (focused !== field) return;
    const labels = labelStack(field.element, field.cslp);
    const name = (cslp: CslpData, schema?: FieldSchema) =>
      field.names?.[cslp.cslpValue] ?? schema?.display_name ?? lastSegment(cslp.fieldPath || cslp.content_type_uid);
    const status = field.status;
    ui.renderToolbar({
      label: name(field.cslp, field.schema),
      icon: field.type || 'empty',
      parents: labels.slice(1).map((parent) => ({
        label: name(parent.cslp),
        run: () => void focus(parent.element, parent.cslp),
      })),
      reason: field.reason,
      // Spec section 8: no schema, or no display name once the editor answered.
      invalid:
        !field.schema || field.names === null || (field.names !== undefined && !field.names[field.cslp.cslpValue]),
      buttons: toolbarButtons(field),
      revert:
        status && (field.cslp.variant || state.variant)
          ? REVERT_ACTIONS.filter(([flag]) => status[flag]).map(([, action, label]) => ({
              label,
              run: () =>
                void channel
                  .send(VB_SENT.variantRevert, {
                    fieldDataName: field.cslp.fieldPathWithIndex,
                    action,
                    euid: field.cslp.entry_uid,
                    ct_uid: field.cslp.content_type_uid,
                    locale: field.cslp.locale,
                  })
                  .catch(ignore),
            }))
          : [],
    });
  }

  function renderAddButtons(field: Focused): void {
    const { cslp, schema, type } = field;
    const instance = isInstance(cslp);
    if (!instance && !(schema?.multiple || type === 'modular_block')) {
      ui.renderAddButtons(null, []);
      return;
    }
    const fieldTag = instance ? parentTag(cslp) : cslp.cslpValue;
    const items = instancesOf(doc, fieldTag);
    const direction = addDirection(fieldElement(doc, fieldTag, items), items);
    if (direction === 'none') {
      ui.renderAddButtons(null, []);
      return;
    }
    const [before, after] = instance
      ? [cslp.multipleFieldMetadata.index, cslp.multipleFieldMetadata.index + 1]
      : [0, items.length];
    const blocks = type === 'modular_block' || type === 'block';
    const max = schema?.max_instance;
    const full = !blocks && typeof max === 'number' && items.length >= max;
    const across = direction === 'horizontal';
    const button = (index: number, placement: AddButtonModel['placement']): AddButtonModel => ({
      label: 'Add section',
      withLabel: blocks,
      title: full ? `Max ${max} instances allowed` : 'Add section',
      disabled: Boolean(full || field.reason),
      placement,
      run: (element) => void addInstance(cslp, fieldTag, index, element),
    });
    ui.renderAddButtons(field.element, [
      button(before, across ? 'left' : 'top'),
      button(after, across ? 'right' : 'bottom'),
    ]);
  }

  async function addInstance(cslp: CslpData, fieldTag: string, index: number, button: HTMLButtonElement) {
    const known = new Set(instancesOf(doc, fieldTag));
    button.classList.add('loading');
    button.disabled = true;
    try {
      await channel.send(VB_SENT.addInstance, { fieldMetadata: cslp, index });
      clickWhenAdded(fieldTag, index, known);
    } catch (error) {
      console.error(BUILDER_ERRORS.ADD_INSTANCE_FAILED, error);
    } finally {
      // Cleared after a failure too (spec section 4).
      button.classList.remove('loading');
      button.disabled = false;
    }
  }

  /** Spec section 9: the new item is clicked 350 ms after it appears; the watch ends after 4 s. */
  function clickWhenAdded(fieldTag: string, index: number, known: Set<Element>): void {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      const items = instancesOf(doc, fieldTag);
      const added = items[index];
      if (!added || (known.has(added) && items.length <= known.size)) return;
      stop();
      timer = setTimeout(() => (added as HTMLElement).click(), NEW_ITEM_CLICK_MS);
      cleanups.push(() => clearTimeout(timer));
    };
    const observer = new win.MutationObserver(check);
    const limit = setTimeout(() => stop(), OBSERVER_TIMEOUT_MS);
    const stop = () => {
      observer.disconnect();
      clearTimeout(limit);
    };
    observer.observe(doc.body, { childList: true, subtree: true, attributes: true, attributeFilter: [CSLP] });
    cleanups.push(stop);
    check();
  }

  /** Makes `element` (the field, or its pseudo-editable copy) take the typing until `field.edit.stop()`. */
  function startEditing(field: Focused, element: HTMLElement): void {
    if (!field.editing) field.initialHtml = field.element.innerHTML;
    field.editing = true;
    element.setAttribute('contenteditable', 'true');
    const sync = throttle(() => {
      channel
        .send(VB_SENT.syncField, { data: textOf(element), fieldMetadata: field.cslp })
        .catch((error: unknown) => logger.error(BUILDER_ERRORS.SYNC_FAILED, error));
    }, SYNC_THROTTLE_MS);
    // Typing may make the field grow or wrap: overlay, outline and toolbar follow once it pauses.
    const placeAfterInput = debounce(() => ui.reposition(), INPUT_REPOSITION_MS);
    // A paste changes the text in one step and key-repeated pastes come in bursts: one sync and
    // one placement 100 ms after the last of them (spec section 9).
    const afterPaste = debounce(() => {
      sync();
      ui.reposition();
    }, PASTE_DEBOUNCE_MS);
    let pasting = false;
    const onInput = () => {
      field.input = true;
      if (pasting) return;
      sync();
      placeAfterInput();
    };
    const onKeydown = (event: KeyboardEvent) => {
      const [start, end] = selectionIn(element);
      if (blocksKey(field.type, event, textOf(element), start, end)) event.preventDefault();
    };
    // Inserted now, while the clipboard and the selection are the paste's own.
    const onPaste = (event: ClipboardEvent) => {
      event.preventDefault();
      const text = pastedText(field.type, event.clipboardData?.getData('text/plain') ?? '');
      pasting = true;
      // execCommand keeps the paste one undo step; without it (test DOMs) the range takes the text.
      if (!doc.execCommand('insertText', false, text)) {
        const range = win.getSelection()?.getRangeAt(0);
        range?.deleteContents();
        range?.insertNode(doc.createTextNode(text));
      }
      pasting = false;
      field.input = true;
      placeAfterInput.cancel();
      afterPaste();
    };
    element.addEventListener('input', onInput);
    element.addEventListener('keydown', onKeydown);
    element.addEventListener('paste', onPaste);
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      element.removeEventListener('input', onInput);
      element.removeEventListener('keydown', onKeydown);
      element.removeEventListener('paste', onPaste);
      placeAfterInput.cancel();
      afterPaste.cancel();
      sync.flush();
      element.removeAttribute('contenteditable');
    };
    field.edit = { target: element, stop };
    field.cleanups.push(stop);
    element.focus({ preventScroll: true });
  }

  /** Moves the editing from the field to a copy showing the stored value (spec: pseudo-editable). */
  function editCopy(field: Focused, value: string): void {
    field.edit?.stop();
    const pseudo = createPseudo(win, field.element, value, field.type);
    field.pseudo = pseudo;
    field.cleanups.push(() => {
      field.pseudo = null;
      pseudo.remove();
    });
    startEditing(field, pseudo.element);
    win.getSelection()?.selectAllChildren(pseudo.element);
    win.getSelection()?.collapseToEnd();
    // The outline and the toolbar follow what is edited.
    ui.showFocus(pseudo.element, false);
    ui.reposition();
  }

  /** The selection inside `element` as text offsets (for the number-key rule). */
  function selectionIn(element: HTMLElement): [number, number] {
    const selection = win.getSelection();
    const length = textOf(element).length;
    if (!selection?.rangeCount) return [length, length];
    const range = selection.getRangeAt(0);
    if (!element.contains(range.startContainer)) return [length, length];
    const before = doc.createRange();
    before.selectNodeContents(element);
    before.setEnd(range.startContainer, range.startOffset);
    const start = before.toString().length;
    return [start, start + range.toString().length];
  }

  async function focus(element: HTMLElement, cslp: CslpData): Promise<void> {
    if (focused?.element === element) return;
    deselect();
    const run = ++focusRun;
    let described: Described;
    try {
      described = await describe(element, cslp);
    } catch (error) {
      // Without a schema there is no focus at all (reference b.5, focus-field).
      logger.error(BUILDER_ERRORS.SCHEMA_FAILED, error);
      return;
    }
    if (run !== focusRun || !element.isConnected) return;
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
      cleanups: [],
    };
    focused = field;
    element.setAttribute(FIELD_TYPE_ATTRIBUTE, described.type);
    hideHover();
    ui.showFocus(element, Boolean(described.reason));
    renderToolbar(field);
    renderAddButtons(field);
    // For the click-to-toolbar time in the browser tests and in people's profiles.
    win.performance.mark('vitrine-builder:toolbar');
    channel.send(VB_SENT.focusField, { DOMEditStack: editStack(element, cslp) }).catch(ignore);
    if (INLINE_EDITABLE.has(described.type) && !described.reason) {
      startEditing(field, element);
      channel
        .send(VB_SENT.getFieldData, {
          fieldMetadata: { content_type_uid: cslp.content_type_uid, entry_uid: cslp.entry_uid, locale: cslp.locale },
          entryPath: cslp.fieldPathWithIndex,
        })
        .then(readFieldData)
        .then((stored) => {
          // Too late once the user has typed into the field itself.
          const value = typeof stored === 'number' ? String(stored) : stored;
          if (focused !== field || field.input || typeof value !== 'string') return;
          if (needsPseudo(textOf(element), value, isTruncated(win, element))) editCopy(field, value);
        })
        .catch(ignore);
    }
    channel
      .send(
        VB_SENT.getDisplayNames,
        labelStack(element, cslp).map((item) => item.cslp),
      )
      .then(readDisplayNames, () => null)
      .then((names) => {
        field.names = names;
        renderToolbar(field);
      });
    channel
      .send(VB_SENT.getVariantStatus, cslp)
      .then(readVariantStatus)
      .then((status) => {
        field.status = status;
        renderToolbar(field);
      })
      .catch(ignore);
    if (described.schema)
      channel
        .send(VB_SENT.getDiscussionId, { fieldMetadata: cslp, fieldSchema: described.schema })
        // A failed request still lets the user start a discussion (spec section 8).
        .then(readDiscussion, () => NEW_DISCUSSION)
        .then((discussion) => {
          field.discussion = discussion;
          renderToolbar(field);
        });
  }

  /** Ends the focus; `update-field` goes out when the field received input, unless `restore` puts the old text back. */
  function deselect({ restore = false } = {}): void {
    focusRun++;
    const field = focused;
    if (!field) return;
    focused = null;
    // Read before the cleanups: a removed copy has no rendered text.
    const text = field.edit ? textOf(field.edit.target) : '';
    for (const cleanup of field.cleanups.splice(0)) cleanup();
    const { element } = field;
    if (field.editing && (!field.input || restore) && element.innerHTML !== field.initialHtml)
      element.innerHTML = field.initialHtml;
    if (field.editing && field.input) {
      if (!restore)
        channel
          .send(VB_SENT.updateField, { data: text, fieldMetadata: field.cslp })
          .catch((error: unknown) => logger.error(BUILDER_ERRORS.UPDATE_FAILED, error));
    }
    element.removeAttribute(FIELD_TYPE_ATTRIBUTE);
    if (doc.activeElement === element) element.blur();
    ui.hideFocus();
  }

  // --- Clicks, keys, page changes ----------------------------------------------------------

  listen(
    win,
    'click',
    (event) => {
      const target = event.target;
      if (event.altKey || ui.owns(target)) return;
      if (target instanceof win.Element && target.closest('[data-studio-ui="true"]')) return;
      // Collaboration takes clicks for threads (reference b.5, mouse-click).
      if (config.collab.enable) return;
      const element = taggedTarget(event);
      const cslp = element ? tagOf(element) : null;
      if (element) win.performance.mark('vitrine-builder:click');
      const click: MouseClick = {
        cslpData: element?.getAttribute(CSLP) ?? undefined,
        fieldMetadata: cslp ?? undefined,
      };
      channel.send(VB_SENT.mouseClick, click).catch(ignore);
      const link = target instanceof win.Element ? target.closest('a[href]') : null;
      if (element || link) {
        event.preventDefault();
        event.stopPropagation();
      }
      if (element && cslp) void focus(element, cslp);
    },
    { capture: true },
  );

  listen(ui.root as unknown as Element, 'click', (event) => {
    const target = event.target as Element | null;
    if (target?.classList.contains('visual-builder__overlay')) deselect();
  });
  // Space on a toolbar button types a space in the field instead of pressing the button (spec section 5).
  listen(ui.root as unknown as Element, 'keydown', (event) => {
    const target = event.target as Element | null;
    if (event.key !== ' ' || !focused?.edit || target?.tagName !== 'BUTTON') return;
    event.preventDefault();
    focused.edit.target.focus();
    doc.execCommand('insertText', false, ' ');
  });

  listen(
    win,
    'keydown',
    (event) => {
      if (event.key === 'Escape' && focused) deselect();
    },
    { capture: true },
  );

  let frame = 0;
  const reposition = () => {
    if (frame) return;
    frame = win.requestAnimationFrame(() => {
      frame = 0;
      focused?.pseudo?.place();
      ui.reposition();
    });
  };
  listen(win, 'scroll', reposition, { capture: true, passive: true });
  listen(win, 'resize', reposition, { passive: true });
  cleanups.push(() => win.cancelAnimationFrame(frame));

  /** An empty multiple field gets a placeholder with an add button (index 0); filled ones lose it. */
  function hydrateEmptyBlocks(): void {
    for (const block of Array.from(doc.querySelectorAll(`.${EMPTY_BLOCK_CLASS}`)))
      if (!block.parentElement?.classList.contains(EMPTY_PARENT_CLASS)) block.remove();
    for (const parent of Array.from(doc.querySelectorAll<HTMLElement>(`.${EMPTY_PARENT_CLASS}[${CSLP}]`))) {
      const cslp = tagOf(parent);
      if (!cslp || Array.from(parent.children).some((child) => child.classList.contains(EMPTY_BLOCK_CLASS))) continue;
      const block = doc.createElement('div');
      block.className = EMPTY_BLOCK_CLASS;
      // Kept by page morphs; ignored by the builder's click handling.
      block.setAttribute(LAYER_OWNED, '');
      block.setAttribute('data-studio-ui', 'true');
      const title = doc.createElement('div');
      title.className = `${EMPTY_BLOCK_CLASS}-title`;
      title.textContent = `There are no ${lastSegment(cslp.fieldPath)} on this page yet.`;
      const button = doc.createElement('button');
      button.type = 'button';
      button.className = `${EMPTY_BLOCK_CLASS}-add-button`;
      button.setAttribute('data-testid', 'visual-builder__empty-block-add-button');
      button.textContent = '+ Add section';
      button.addEventListener('click', () => void addInstance(cslp, cslp.cslpValue, 0, button));
      block.append(title, button);
      parent.append(block);
      schemaFor(cslp.content_type_uid)
        .then((map) => {
          const name = map[cslp.fieldPath]?.display_name;
          if (name) title.textContent = `There are no ${name} on this page yet.`;
        })
        .catch(ignore);
    }
  }
  hydrateEmptyBlocks();
  cleanups.push(() => {
    for (const block of Array.from(doc.querySelectorAll(`.${EMPTY_BLOCK_CLASS}`))) block.remove();
  });

  // The site changes its page (morphs, islands): follow it, and drop a focus whose field is gone.
  let mutationTimer: ReturnType<typeof setTimeout> | undefined;
  const observer = new win.MutationObserver(() => {
    clearTimeout(mutationTimer);
    mutationTimer = setTimeout(() => {
      if (focused && !focused.element.isConnected) deselect({ restore: true });
      if (hovered && !hovered.element.isConnected) hideHover();
      hydrateEmptyBlocks();
      if (focused && !focused.element.hasAttribute(FIELD_TYPE_ATTRIBUTE))
        focused.element.setAttribute(FIELD_TYPE_ATTRIBUTE, focused.type);
      focused?.pseudo?.place();
      ui.reposition();
    }, PAGE_MUTATION_DEBOUNCE_MS);
  });
  observer.observe(doc.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['class', CSLP] });
  cleanups.push(() => {
    observer.disconnect();
    clearTimeout(mutationTimer);
  });

  // --- Editor → layer ---------------------------------------------------------------------

  const tagged = () => Array.from(doc.querySelectorAll<HTMLElement>(`[${CSLP}]`));

  channel.on(VB_RECEIVED.hideFocusOverlay, (data) => {
    const { noTrigger, fromCollab } = readHideFocusOverlay(data);
    // The editor switches to comments: collaboration takes over the page, paused until it says go.
    if (fromCollab) {
      config.collab.enable = true;
      config.collab.pauseFeedback = true;
      hideHover();
    }
    deselect({ restore: noTrigger });
  });
  channel.on(VB_RECEIVED.updateDiscussionId, (data) => {
    const update = readDiscussionUpdate(data);
    const field = focused;
    if (
      !update ||
      !field ||
      update.entryId !== field.cslp.entry_uid ||
      update.contentTypeId !== field.cslp.content_type_uid ||
      update.fieldPath !== field.cslp.fieldPathWithIndex
    )
      return;
    field.discussion = update.discussion;
    renderToolbar(field);
  });
  channel.on(VB_RECEIVED.scrollToField, (data) => {
    const tag = readScrollToField(data);
    tagged()
      .find((element) => element.getAttribute(CSLP) === tag)
      ?.scrollIntoView({ behavior: 'smooth', block: 'center' });
  });
  channel.on(VB_RECEIVED.entriesInPage, () => {
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
  channel.on(VB_RECEIVED.showDraftFields, (data) => {
    const fields = new Set(readDraftFields(data));
    for (const element of tagged()) element.classList.toggle(DRAFT_CLASS, fields.has(element.getAttribute(CSLP) ?? ''));
  });
  channel.on(VB_RECEIVED.removeDraftFields, () => {
    for (const element of tagged()) element.classList.remove(DRAFT_CLASS);
  });
  channel.on(VB_RECEIVED.showVariantFields, (data) => {
    const fields = readVariantFields(data);
    if (!fields) return;
    for (const element of tagged()) markVariant(element, fields.variant, fields.highlight);
  });
  channel.on(VB_RECEIVED.removeVariantFields, (data) => {
    const classes = readOnlyHighlighted(data)
      ? [VARIANT_OUTLINE_CLASS]
      : [VARIANT_OUTLINE_CLASS, VARIANT_CLASSES.variant, VARIANT_CLASSES.base, VARIANT_CLASSES.disabled];
    for (const element of tagged()) element.classList.remove(...classes);
  });
  channel.on(VB_RECEIVED.variantId, (data) => {
    state.variant = readVariantId(data);
    schemas.clear();
  });
  channel.on(VB_RECEIVED.locale, (data) => {
    state.locale = readLocale(data) ?? state.locale;
  });
  channel.on(VB_RECEIVED.audienceMode, (data) => {
    state.audienceMode = readAudienceMode(data);
  });
  channel.on(VB_RECEIVED.deleteInstance, (data) => {
    if (focused && readDeletePath(data) === focused.cslp.instance.fieldPathWithIndex) deselect({ restore: true });
  });

  /**
   * `variant-patch-update` (reference b.3): the editor has changed a field's variant data and the
   * site will re-render it under new tags. In audience mode, for 8 s (spec section 9), every
   * tagged element whose tag appears or changes is marked again.
   */
  let stopPatchWatch: (() => void) | undefined;
  function watchVariantPatch(patch: VariantPatch): void {
    const variant = state.variant ?? (patch.variant ? parseCslp(patch.variant)?.variant : undefined);
    if (!state.audienceMode || !variant) return;
    stopPatchWatch?.();
    const mark = (element: Element) => {
      if (element.hasAttribute(CSLP)) markVariant(element, variant, patch.highlight);
    };
    // The site may have re-rendered before the message arrived.
    for (const element of tagged()) {
      const tag = element.getAttribute(CSLP);
      if (tag === patch.variant || tag === patch.base) mark(element);
    }
    const watcher = new win.MutationObserver((records) => {
      for (const record of records) {
        if (record.type === 'attributes') mark(record.target as Element);
        for (const node of Array.from(record.addedNodes))
          if (node instanceof win.Element)
            for (const element of [node, ...node.querySelectorAll(`[${CSLP}]`)]) mark(element);
      }
    });
    watcher.observe(doc.body, { childList: true, subtree: true, attributes: true, attributeFilter: [CSLP] });
    const timer = setTimeout(() => stopPatchWatch?.(), VARIANT_OBSERVER_TIMEOUT_MS);
    stopPatchWatch = () => {
      watcher.disconnect();
      clearTimeout(timer);
      stopPatchWatch = undefined;
    };
  }
  livePreview?.on(VARIANT_PATCH, (data) => {
    watchVariantPatch(readVariantPatch(data));
  });
  cleanups.push(() => stopPatchWatch?.());

  return {
    destroy() {
      deselect({ restore: true });
      for (const cleanup of cleanups.splice(0)) cleanup();
    },
  };
};
