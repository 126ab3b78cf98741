import { type Html, html, when } from '../view/html.ts';
import type { Surface } from '../view/render.ts';
import { icon } from './icons.ts';

/**
 * The focused-field toolbar's markup: field label with its parents menu, the invalid-tag badge, the
 * field's buttons, the variant revert menu and the disabled reason. A template of the model; ui.ts
 * draws it and places it.
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
  /** Asks the editor for edit access, where a workflow-stage lock allows asking (4.x). */
  requestAccess?: (() => void) | undefined;
  /** Opens the editor's dialog to link the field to the variant, where the editor allows it (4.x). */
  linkVariant?: (() => void) | undefined;
  /** The invalid-tag badge. */
  invalid: boolean;
  buttons: ToolbarButton[];
  /** The variant revert menu, when the field has variant changes. */
  revert: { label: string; run(): void }[];
}

const INVALID = 'Invalid CSLP tag';
const INVALID_DETAIL = 'The CSLP is invalid or incorrectly generated.';

export function toolbarView(model: ToolbarModel, on: Surface['on']): Html {
  // A menu opens below the button before it; every render closes it again.
  const toggle = on('click', (_event, button) => {
    const menu = button.nextElementSibling as HTMLElement | null;
    if (menu) menu.hidden = !menu.hidden;
  });
  const menu = (className: string, items: { label: string; run(): void }[]) =>
    html`<div class="${className}" hidden>${items.map(
      (item) => html`<button type="button" class="tb-button" ${on('click', item.run)}>${item.label}</button>`,
    )}</div>`;
  const nested = model.parents.length > 0;
  const names = [model.label, ...model.parents.map((p) => p.label)].reverse().join(' › ');
  const buttons = model.buttons.map(
    (spec) =>
      html`<button type="button" class="tb-button" data-testid="${spec.id}" data-tooltip="${spec.label}" aria-label="${spec.label}" ${on('click', spec.run)} ${when(Boolean(spec.disabled || model.reason), 'disabled')}>${spec.glyph}</button>`,
  );
  const revert =
    model.revert.length > 0 &&
    html`<div class="visual-builder__variant-revert"><button type="button" class="tb-button" data-testid="visual-builder-canvas-variant-revert" data-tooltip="Variant Revert" ${toggle} ${when(Boolean(model.reason), 'disabled')}>↺ ▾</button>${menu('tb-menu', model.revert)}</div>`;
  return html`<div class="tb-group"><div class="tb-label-wrap visual-builder__focused-toolbar__field-label-wrapper"><button type="button" class="tb-label${model.reason ? ' disabled' : ''}" data-testid="visual-builder__focused-toolbar__field-label" ${nested && toggle}>${icon(model.icon)}${nested ? `${names} ▾` : model.label}</button>${nested && menu('tb-parents', model.parents)}</div>${
    model.invalid &&
    html`<span class="tb-error tooltip-below" data-testid="visual-builder__focused-toolbar__error" data-tooltip="${INVALID}&#10;${INVALID_DETAIL}" aria-label="${INVALID}: ${INVALID_DETAIL}">Error</span>`
  }</div>${
    (buttons.length > 0 || revert) &&
    html`<div class="tb-group visual-builder__focused-toolbar__multiple-field-toolbar">${buttons}${revert}</div>`
  }${model.reason && html`<span class="tb-reason" data-testid="visual-builder__focused-toolbar__disabled-reason">${model.reason}</span>`}${
    model.requestAccess &&
    html`<button type="button" class="tb-request" data-testid="visual-builder__focused-toolbar__request-edit-access" ${on('click', model.requestAccess)}>Request Edit Access</button>`
  }${
    model.linkVariant &&
    html`<button type="button" class="tb-request" data-testid="visual-builder__focused-toolbar__link-variant" ${on('click', model.linkVariant)}>Click here to link a variant</button>`
  }`;
}
