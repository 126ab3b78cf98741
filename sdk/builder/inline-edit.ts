import { debounce } from '../debounce.ts';
import { logger } from '../logger.ts';
import { INPUT_REPOSITION_MS, PASTE_DEBOUNCE_MS, SYNC_THROTTLE_MS } from '../timing.ts';
import { type BuilderContext, type Focused, textOf } from './context.ts';
import { BUILDER_ERRORS } from './errors.ts';
import { blocksKey, pastedText } from './keyboard.ts';
import { createPseudo } from './pseudo.ts';
import { throttle } from './throttle.ts';

/**
 * In-place editing of a focused text field: typing syncs to the editor (throttled), keys that
 * would make the value invalid are blocked, pastes are plain text, and what grows is placed again
 * once typing pauses. When the page formats the value, the editing moves to a pseudo-editable copy
 * showing the stored value. Everything here ends with the focus (`field.signal`).
 */

/** The selection inside `element` as text offsets (for the number-key rule). */
function selectionIn({ win, doc }: BuilderContext, element: HTMLElement): [number, number] {
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

/**
 * 4.1.1's mark on the field edited last. Editing it again goes to a copy (`focus.ts`): a page that
 * re-rendered the field since would otherwise make the caret jump. 4.4.1 can leave it on two
 * fields; here one carries it.
 */
const LAST_EDITED = 'data-cs-last-edited';

export function wasLastEdited(element: HTMLElement): boolean {
  return element.hasAttribute(LAST_EDITED);
}

function markLastEdited({ doc }: BuilderContext, element: HTMLElement): void {
  for (const other of Array.from(doc.querySelectorAll(`[${LAST_EDITED}]`)))
    if (other !== element) other.removeAttribute(LAST_EDITED);
  element.setAttribute(LAST_EDITED, 'true');
}

/** Makes `element` (the field, or its pseudo-editable copy) take the typing until `field.edit.stop()`. */
export function startEditing(ctx: BuilderContext, field: Focused, element: HTMLElement): void {
  const { win, doc, ui, channel } = ctx;
  if (!field.editing) field.initialHtml = field.element.innerHTML;
  field.editing = true;
  element.setAttribute('contenteditable', 'true');
  markLastEdited(ctx, field.element);
  const sync = throttle(() => {
    channel
      .send('sync-field', { data: textOf(element), fieldMetadata: field.cslp })
      .catch((error: unknown) => logger.error(BUILDER_ERRORS.SYNC_FAILED, error));
  }, SYNC_THROTTLE_MS);
  // Typing may make the field grow or wrap: overlay, outline and toolbar follow once it pauses.
  const placeAfterInput = debounce(() => ui.reposition(), INPUT_REPOSITION_MS);
  // A paste changes the text in one step and key-repeated pastes come in bursts: one sync and
  // one placement 100 ms after the last of them.
  const afterPaste = debounce(() => {
    sync();
    ui.reposition();
  }, PASTE_DEBOUNCE_MS);
  let pasting = false;
  const editing = new AbortController();
  const signal = AbortSignal.any([field.signal, editing.signal]);
  element.addEventListener(
    'input',
    () => {
      field.input = true;
      // As 4.4.1: typing moves the mark to what is typed into (a copy takes it with it when it goes).
      markLastEdited(ctx, element);
      if (pasting) return;
      sync();
      placeAfterInput();
    },
    { signal },
  );
  element.addEventListener(
    'keydown',
    (event) => {
      const [start, end] = selectionIn(ctx, element);
      if (blocksKey(field.type, event, textOf(element), start, end)) event.preventDefault();
    },
    { signal },
  );
  // Inserted now, while the clipboard and the selection are the paste's own.
  element.addEventListener(
    'paste',
    (event) => {
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
    },
    { signal },
  );
  signal.addEventListener(
    'abort',
    () => {
      placeAfterInput.cancel();
      afterPaste.cancel();
      sync.flush();
      element.removeAttribute('contenteditable');
    },
    { once: true },
  );
  field.edit = { target: element, stop: () => editing.abort() };
  element.focus({ preventScroll: true });
}

/** Moves the editing from the field to a copy showing the stored value (spec: pseudo-editable). */
export function editCopy(ctx: BuilderContext, field: Focused, value: string): void {
  const { win, ui } = ctx;
  field.edit?.stop();
  const pseudo = createPseudo(win, field.element, value, field.type);
  field.pseudo = pseudo;
  field.signal.addEventListener(
    'abort',
    () => {
      field.pseudo = null;
      pseudo.remove();
    },
    { once: true },
  );
  startEditing(ctx, field, pseudo.element);
  win.getSelection()?.selectAllChildren(pseudo.element);
  win.getSelection()?.collapseToEnd();
  // The outline and the toolbar follow what is edited.
  ui.showFocus(pseudo.element, false);
  ui.reposition();
}
