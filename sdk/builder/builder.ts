import { observe, onAbort } from '../abort.ts';
import type { Config } from '../config/types.ts';
import { CSLP, type PageWindow } from '../dom.ts';
import { PAGE_MUTATION_DEBOUNCE_MS } from '../timing.ts';
import type { Channel } from '../transport/channel.ts';
import { type BuilderContext, createContext, FIELD_TYPE_ATTRIBUTE } from './context.ts';
import { deselect } from './deselect.ts';
import { answerEditor, remarkVariantFields, taggedElements } from './editor-messages.ts';
import { startFocus } from './focus.ts';
import { hideHover, startHover } from './hover.ts';
import { hydrateEmptyBlocks, removeEmptyBlocks } from './instance-actions.ts';
import { forgetLabels } from './label.ts';
import { readHighlightStatus } from './protocol.ts';
import { textsOf } from './text.ts';
import { createUi } from './ui.ts';
import { watchVariantPatches } from './variant-watch.ts';
import { markVariant } from './variants.ts';

/**
 * The visual builder: a lazy chunk the core starts once the editor has said the window is a
 * builder. Its features, each a module started with the one shared context:
 * - hover.ts: outline, type cursor and (4.x) hover toolbar under the pointer;
 * - label.ts: the label's content-type name and referring field (4.x), kept while hovering;
 * - focus.ts: click to focus (overlay, toolbar, add buttons), Escape to end;
 * - toolbar.ts: what the focused field's toolbar offers, field-location apps (4.x) among it;
 * - instance-actions.ts: add, move and delete items of multiple fields, empty-field placeholders;
 * - inline-edit.ts: in-place text editing with throttled sync and plain-text paste;
 * - editor-messages.ts: what the editor tells the builder;
 * - variant-watch.ts: re-marking variant fields after a variant patch.
 * `destroy` aborts the context's signal, which undoes every listener, observer and timer.
 */

export interface BuilderOptions {
  win: PageWindow;
  config: Config;
  /** The visual-builder channel the core opened. */
  channel: Channel;
  /** The core's live-preview channel, for `variant-patch-update`. */
  livePreview?: Channel;
  /** Registers a listener for the editor's entry changes (`client-data-send`); returns its removal. */
  entryChanged?: (listener: () => void) => () => void;
}

export interface Builder {
  destroy(): void;
}

export type StartBuilder = (options: BuilderOptions) => Builder;

export { showStartEditing } from './start-editing.ts';

/** The page moves under the builder: scroll and resize re-place the surfaces once per frame. */
function followScroll(ctx: BuilderContext): void {
  const { win, ui, signal } = ctx;
  let frame = 0;
  const reposition = () => {
    if (frame) return;
    frame = win.requestAnimationFrame(() => {
      frame = 0;
      ctx.focused?.pseudo?.place();
      ui.reposition();
    });
  };
  win.addEventListener('scroll', reposition, { capture: true, passive: true, signal });
  win.addEventListener('resize', reposition, { passive: true, signal });
  onAbort(signal, () => win.cancelAnimationFrame(frame));
}

/** The site changes its page (morphs, islands): follow it, and drop a focus whose field is gone. */
function followPageChanges(ctx: BuilderContext): void {
  const { win, doc, ui, signal } = ctx;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const settled = () => {
    const { focused, hovered, state } = ctx;
    // 4.x: with variant fields highlighted, what the page re-rendered is marked again.
    if (state.variant && state.highlight)
      for (const element of taggedElements(doc))
        markVariant(element, state.variant, state.highlight, state.variantOrder);
    if (focused && !focused.element.isConnected) deselect(ctx, { restore: true });
    if (hovered && !hovered.element.isConnected) hideHover(ctx);
    hydrateEmptyBlocks(ctx);
    const still = ctx.focused;
    if (still && !still.element.hasAttribute(FIELD_TYPE_ATTRIBUTE))
      still.element.setAttribute(FIELD_TYPE_ATTRIBUTE, still.type);
    still?.pseudo?.place();
    ui.reposition();
  };
  const options = { childList: true, subtree: true, attributes: true, attributeFilter: ['class', CSLP] };
  observe(win, signal, doc.body, options, () => {
    clearTimeout(timer);
    timer = setTimeout(settled, PAGE_MUTATION_DEBOUNCE_MS);
  });
  onAbort(signal, () => clearTimeout(timer));
}

export const startBuilder: StartBuilder = ({ win, config, channel, livePreview, entryChanged }) => {
  const teardown = new AbortController();
  const ui = createUi(win, textsOf(config.messages));
  const ctx = createContext({ win, config, channel, ui, signal: teardown.signal });
  startHover(ctx);
  startFocus(ctx);
  followScroll(ctx);
  hydrateEmptyBlocks(ctx);
  followPageChanges(ctx);
  answerEditor(ctx);
  watchVariantPatches(ctx, livePreview);
  // 4.x: the variant-highlight switch survives a reload; a 3.2.5 editor's refusal reads as off.
  // An answer says the editor is 4.x: a variant it selected before answering is marked now.
  if (config.windowType === 'builder')
    channel.send('get-highlight-variant-fields-status').then(
      (status) => {
        ctx.state.highlight = readHighlightStatus(status);
        ctx.state.fourX = true;
        remarkVariantFields(ctx);
      },
      () => {
        ctx.state.highlight = false;
      },
    );
  // A changed entry may be in another workflow stage: its locks are asked again, names and references too.
  if (entryChanged)
    onAbort(
      teardown.signal,
      entryChanged(() => {
        ctx.forgetLocks();
        forgetLabels(ctx);
      }),
    );
  return {
    destroy() {
      deselect(ctx, { restore: true });
      teardown.abort();
      removeEmptyBlocks(win.document);
      ui.destroy();
    },
  };
};
