import { button, el } from '../el.ts';
import { iconElement } from './icons.ts';

/**
 * The focused-field toolbar's markup: field label with its parents menu, the
 * invalid-tag badge, the field's buttons, the variant revert menu and the disabled reason. Drawn
 * afresh from a model; ui.ts places it and shows the tooltips.
 */

export interface ToolbarButton {
  /** Its `data-testid`. */
  id: string;
  label: string;
  glyph: string;
  disabled?: boolean;
  run(): void;
}

export interface ToolbarModel {
  label: string;
  /** The field type, for its icon. */
  icon: string;
  /** Up to two parent labels, nearest first, each focusing its parent when chosen. */
  parents: { label: string; run(): void }[];
  /** Why the field cannot be edited, '' when it can. */
  reason: string;
  /** The invalid-tag badge. */
  invalid: boolean;
  buttons: ToolbarButton[];
  /** The variant revert menu, when the field has variant changes. */
  revert: { label: string; run(): void }[];
}

/** A button that toggles a menu of actions below it. */
function menuOf(
  doc: Document,
  toggle: HTMLButtonElement,
  className: string,
  parent: Node,
  items: { label: string; run(): void }[],
) {
  const menu = el(doc, 'div', className, parent);
  menu.hidden = true;
  toggle.addEventListener('click', () => {
    menu.hidden = !menu.hidden;
  });
  for (const item of items) button(doc, 'tb-button', item.label, menu).addEventListener('click', item.run);
}

export function drawToolbar(doc: Document, toolbar: HTMLElement, model: ToolbarModel): void {
  const group = el(doc, 'div', 'tb-group', toolbar);
  const labelWrap = el(doc, 'div', 'tb-label-wrap visual-builder__focused-toolbar__field-label-wrapper', group);
  const label = button(doc, `tb-label${model.reason ? ' disabled' : ''}`, '', labelWrap);
  label.setAttribute('data-testid', 'visual-builder__focused-toolbar__field-label');
  const names = [model.label, ...model.parents.map((p) => p.label)];
  label.append(iconElement(doc, model.icon), model.parents.length ? `${names.reverse().join(' › ')} ▾` : model.label);
  if (model.parents.length) menuOf(doc, label, 'tb-parents', labelWrap, model.parents);
  if (model.invalid) {
    const badge = el(doc, 'span', 'tb-error tooltip-below', group);
    badge.textContent = 'Error';
    badge.setAttribute('data-testid', 'visual-builder__focused-toolbar__error');
    badge.setAttribute('data-tooltip', 'Invalid CSLP tag\nThe CSLP is invalid or incorrectly generated.');
    badge.setAttribute('aria-label', 'Invalid CSLP tag: The CSLP is invalid or incorrectly generated.');
  }
  if (model.buttons.length || model.revert.length) {
    const buttons = el(doc, 'div', 'tb-group visual-builder__focused-toolbar__multiple-field-toolbar', toolbar);
    for (const spec of model.buttons) {
      const node = button(doc, 'tb-button', spec.glyph, buttons);
      node.disabled = Boolean(spec.disabled || model.reason);
      node.setAttribute('data-testid', spec.id);
      node.setAttribute('data-tooltip', spec.label);
      node.setAttribute('aria-label', spec.label);
      node.addEventListener('click', () => spec.run());
    }
    if (model.revert.length) {
      const wrap = el(doc, 'div', 'visual-builder__variant-revert', buttons);
      const toggle = button(doc, 'tb-button', '↺ ▾', wrap);
      toggle.setAttribute('data-testid', 'visual-builder-canvas-variant-revert');
      toggle.setAttribute('data-tooltip', 'Variant Revert');
      toggle.disabled = Boolean(model.reason);
      menuOf(doc, toggle, 'tb-menu', wrap, model.revert);
    }
  }
  if (model.reason) {
    const reason = el(doc, 'span', 'tb-reason', toolbar);
    reason.setAttribute('data-testid', 'visual-builder__focused-toolbar__disabled-reason');
    reason.textContent = model.reason;
  }
}
