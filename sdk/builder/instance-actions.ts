import { later, observe } from '../abort.ts';
import type { CslpData } from '../cslp/parse.ts';
import { CSLP, LAYER_OWNED } from '../dom.ts';
import { el, button as makeButton } from '../el.ts';
import { NEW_ITEM_CLICK_MS, OBSERVER_TIMEOUT_MS } from '../timing.ts';
import { type BuilderContext, type Focused, ignore, lastSegment } from './context.ts';
import { deselect } from './deselect.ts';
import { BUILDER_ERRORS } from './errors.ts';
import { addDirection, fieldElement, instancesOf, isInstance, parentTag, tagOf } from './instances.ts';
import type { Direction } from './protocol.ts';
import { fill, textsOf } from './text.ts';
import type { AddButtonModel } from './ui.ts';

/**
 * The items of a multiple field: add (buttons beside the focused item or field, and a placeholder
 * in an empty field), move and delete. Each goes to the editor; the site re-renders the field.
 */

/** Set by the site on an empty multiple field; the builder puts a placeholder in it. */
const EMPTY_PARENT_CLASS = 'visual-builder__empty-block-parent';
const EMPTY_BLOCK_CLASS = 'visual-builder__empty-block';

const instancePath = (cslp: CslpData) => `${cslp.fieldPathWithIndex}.${cslp.multipleFieldMetadata.index}`;

/** Sends `type` for the focused item; the focus ends either way (the item moves or goes). */
function sendForItem(
  ctx: BuilderContext,
  field: Focused,
  type: 'move-instance' | 'delete-instance',
  extra: { direction?: Direction },
): void {
  ctx.channel
    .send(type, { data: instancePath(field.cslp), ...extra, fieldMetadata: field.cslp })
    .catch(ignore)
    .finally(() => {
      if (ctx.focused === field) deselect(ctx);
    });
}

export const moveInstance = (ctx: BuilderContext, field: Focused, direction: Direction) =>
  sendForItem(ctx, field, 'move-instance', { direction });

export const deleteInstance = (ctx: BuilderContext, field: Focused) => sendForItem(ctx, field, 'delete-instance', {});

/** Add buttons before and after the focused item, or at both ends of the focused multiple field. */
export function renderAddButtons(ctx: BuilderContext, field: Focused): void {
  const { doc, ui } = ctx;
  const { cslp, schema, type } = field;
  const instance = isInstance(cslp);
  const fieldTag = instance ? parentTag(cslp) : cslp.cslpValue;
  const items = instancesOf(doc, fieldTag);
  const direction =
    instance || schema?.multiple || type === 'modular_block'
      ? addDirection(fieldElement(doc, fieldTag, items), items)
      : 'none';
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
  const texts = textsOf(ctx.config.messages);
  const button = (index: number, placement: AddButtonModel['placement']): AddButtonModel => ({
    label: texts.addSection,
    withLabel: blocks,
    title: full ? fill(texts.maxInstances, { max: String(max) }) : texts.addSection,
    disabled: Boolean(full || field.reason),
    placement,
    run: (element) => void addInstance(ctx, cslp, fieldTag, index, element),
  });
  ui.renderAddButtons(field.element, [
    button(before, across ? 'left' : 'top'),
    button(after, across ? 'right' : 'bottom'),
  ]);
}

export async function addInstance(
  ctx: BuilderContext,
  cslp: CslpData,
  fieldTag: string,
  index: number,
  button: HTMLButtonElement,
): Promise<void> {
  const known = new Set(instancesOf(ctx.doc, fieldTag));
  button.classList.add('loading');
  button.disabled = true;
  try {
    await ctx.channel.send('add-instance', { fieldMetadata: cslp, index });
    clickWhenAdded(ctx, fieldTag, index, known);
  } catch (error) {
    console.error(BUILDER_ERRORS.ADD_INSTANCE_FAILED, error);
  } finally {
    // Cleared after a failure too.
    button.classList.remove('loading');
    button.disabled = false;
  }
}

/** The new item is clicked 350 ms after it appears; the watch ends after 4 s. */
function clickWhenAdded(ctx: BuilderContext, fieldTag: string, index: number, known: Set<Element>): void {
  const watch = new AbortController();
  const signal = AbortSignal.any([ctx.signal, watch.signal]);
  const check = () => {
    const items = instancesOf(ctx.doc, fieldTag);
    const added = items[index];
    if (!added || (known.has(added) && items.length <= known.size)) return;
    watch.abort();
    later(ctx.signal, () => (added as HTMLElement).click(), NEW_ITEM_CLICK_MS);
  };
  observe(
    ctx.win,
    signal,
    ctx.doc.body,
    { childList: true, subtree: true, attributes: true, attributeFilter: [CSLP] },
    check,
  );
  later(signal, () => watch.abort(), OBSERVER_TIMEOUT_MS);
  check();
}

/** An empty multiple field gets a placeholder with an add button (index 0); filled ones lose it. */
export function hydrateEmptyBlocks(ctx: BuilderContext): void {
  const { doc } = ctx;
  const texts = textsOf(ctx.config.messages);
  const empty = (name: string) => fill(texts.noInstances, { name });
  for (const block of Array.from(doc.querySelectorAll(`.${EMPTY_BLOCK_CLASS}`)))
    if (!block.parentElement?.classList.contains(EMPTY_PARENT_CLASS)) block.remove();
  for (const parent of Array.from(doc.querySelectorAll<HTMLElement>(`.${EMPTY_PARENT_CLASS}[${CSLP}]`))) {
    const cslp = tagOf(parent);
    if (!cslp || Array.from(parent.children).some((child) => child.classList.contains(EMPTY_BLOCK_CLASS))) continue;
    const block = el(doc, 'div', EMPTY_BLOCK_CLASS, parent);
    // Kept by page morphs; ignored by the builder's click handling.
    block.setAttribute(LAYER_OWNED, '');
    block.setAttribute('data-studio-ui', 'true');
    const title = el(doc, 'div', `${EMPTY_BLOCK_CLASS}-title`, block);
    title.textContent = empty(lastSegment(cslp.fieldPath));
    const add = makeButton(doc, `${EMPTY_BLOCK_CLASS}-add-button`, `+ ${texts.addSection}`, block);
    add.setAttribute('data-testid', 'visual-builder__empty-block-add-button');
    add.addEventListener('click', () => void addInstance(ctx, cslp, cslp.cslpValue, 0, add));
    ctx
      .schemaFor(cslp.content_type_uid)
      .then((map) => {
        const name = map[cslp.fieldPath]?.display_name;
        if (name) title.textContent = empty(name);
      })
      .catch(ignore);
  }
}

export function removeEmptyBlocks(doc: Document): void {
  for (const block of Array.from(doc.querySelectorAll(`.${EMPTY_BLOCK_CLASS}`))) block.remove();
}
