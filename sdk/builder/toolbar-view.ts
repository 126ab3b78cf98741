import { type Html, html, when } from '../view/html.ts';
import type { Surface } from '../view/render.ts';
import { icon } from './icons.ts';
import type { Texts } from './text.ts';

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
  // 4.x: the hover toolbar's names and field-location apps.
  /** The content type's name, '' when the editor gave none. */
  contentType: string;
  /** Where the entry is referenced from, as said to the editor; '' when it is not. */
  referenced: string;
  /** Field-location apps: the first as a button, the others in a searchable list behind "More apps". */
  apps: AppButton[];
  texts: Texts;
}

export interface AppButton {
  title: string;
  /** An https or data: image URL; otherwise the title's first letter stands in. */
  icon: string | undefined;
  /** `position` is the apps group's box, where the editor opens the app. */
  run(position: Record<string, number>): void;
}

/** The hover toolbar (4.x): the field's label alone, not interactive. */
export interface HoverLabelModel {
  /** The field and its parents, outermost first. */
  path: string;
  icon: string;
  disabled: boolean;
  contentType: string;
  referenced: string;
}

/** 4.4.1's search of the app list: letters, digits and spaces, case-insensitive. */
export const normalizeSearch = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9 ]/gi, '')
    .trim();

const SAFE_ICON = /^(https:|data:image\/)/i;

/** The label's text: content-type name, then the field path; the referring field below it. */
export function labelText(
  model: Pick<HoverLabelModel, 'contentType' | 'referenced'>,
  path: string,
  kind: string,
): { label: Html; referenced: Html | false } {
  return {
    label: html`${icon(kind)}${model.contentType && html`<span class="tb-ct" data-testid="visual-builder__focused-toolbar__ct-name">${model.contentType} :</span>`}<span class="tb-path">${path}</span>`,
    referenced:
      model.referenced !== '' &&
      html`<span class="tb-ref" data-testid="visual-builder__focused-toolbar__reference">${icon('reference')}${model.referenced}</span>`,
  };
}

export function hoverLabelView(model: HoverLabelModel): Html {
  const { label, referenced } = labelText(model, model.path, model.icon);
  return html`<div class="tb-label${model.disabled ? ' disabled' : ''}" data-testid="visual-builder__hover-toolbar__label">${label}</div>${referenced}`;
}

function appsView(model: ToolbarModel, on: Surface['on']): Html | false {
  const [first, ...rest] = model.apps;
  if (!first) return false;
  const { texts } = model;
  const box = (element: Element) => {
    const r = (element.closest('.tb-apps') ?? element).getBoundingClientRect();
    return {
      x: r.x,
      y: r.y,
      width: r.width,
      height: r.height,
      top: r.top,
      right: r.right,
      bottom: r.bottom,
      left: r.left,
    };
  };
  const face = (app: AppButton) =>
    app.icon && SAFE_ICON.test(app.icon)
      ? html`<img class="tb-app-icon" src="${app.icon}" alt="" width="16" height="16">`
      : html`<span class="tb-app-icon" aria-hidden="true">${app.title.charAt(0).toUpperCase()}</span>`;
  const choose = (app: AppButton) =>
    on('click', (_event, button) => {
      app.run(box(button));
      button.closest('.tb-app-list')?.setAttribute('hidden', '');
    });
  return html`<div class="tb-group tb-apps" role="group" aria-label="${texts.apps}" data-testid="visual-builder__field-location-apps"><button type="button" class="tb-button" data-testid="field-location-icon" aria-label="${first.title}" data-tooltip="${first.title}" ${choose(first)}>${face(first)}</button>${
    rest.length > 0 &&
    html`<div class="tb-more"><button type="button" class="tb-button" data-testid="field-location-more-button" aria-label="${texts.moreApps}" data-tooltip="${texts.moreApps}" aria-expanded="false" ${on('click', toggleMenu)}>⋯</button><div class="tb-app-list" hidden><input type="search" class="tb-app-search" aria-label="${texts.searchApps}" placeholder="${texts.searchApps}"><div class="tb-app-items">${rest.map(
      (app) =>
        html`<button type="button" class="tb-app-item" data-search="${normalizeSearch(app.title)}" ${choose(app)}>${face(app)}<span>${app.title}</span></button>`,
    )}</div><p class="tb-no-apps" role="status" hidden>${texts.noApps}</p></div></div>`
  }</div>`;
}

/** Opens or closes the menu after a button, saying so to assistive technology. */
function toggleMenu(_event: Event, button: HTMLElement): void {
  const menu = button.nextElementSibling as HTMLElement | null;
  if (!menu) return;
  menu.hidden = !menu.hidden;
  button.setAttribute('aria-expanded', String(!menu.hidden));
}

export function toolbarView(model: ToolbarModel, on: Surface['on']): Html {
  const { texts } = model;
  // A menu opens below the button before it; every render closes it again.
  const toggle = on('click', toggleMenu);
  const menu = (className: string, items: { label: string; run(): void }[]) =>
    html`<div class="${className}" hidden>${items.map(
      (item) => html`<button type="button" class="tb-button" ${on('click', item.run)}>${item.label}</button>`,
    )}</div>`;
  const nested = model.parents.length > 0;
  const names = [model.label, ...model.parents.map((p) => p.label)].reverse().join(' › ');
  const { label, referenced } = labelText(model, nested ? `${names} ▾` : model.label, model.icon);
  const buttons = model.buttons.map(
    (spec) =>
      html`<button type="button" class="tb-button" data-testid="${spec.id}" data-tooltip="${spec.label}" aria-label="${spec.label}" ${on('click', spec.run)} ${when(Boolean(spec.disabled || model.reason), 'disabled')}>${spec.glyph}</button>`,
  );
  const revert =
    model.revert.length > 0 &&
    html`<div class="visual-builder__variant-revert"><button type="button" class="tb-button" data-testid="visual-builder-canvas-variant-revert" data-tooltip="${texts.variantRevert}" ${toggle} ${when(Boolean(model.reason), 'disabled')}>↺ ▾</button>${menu('tb-menu', model.revert)}</div>`;
  return html`<div class="tb-group"><div class="tb-label-wrap visual-builder__focused-toolbar__field-label-wrapper"><button type="button" class="tb-label${model.reason ? ' disabled' : ''}" data-testid="visual-builder__focused-toolbar__field-label" ${nested && toggle}>${label}</button>${nested && menu('tb-parents', model.parents)}${referenced}</div>${
    model.invalid &&
    html`<span class="tb-error tooltip-below" data-testid="visual-builder__focused-toolbar__error" data-tooltip="${texts.invalidTag}&#10;${texts.invalidTagDetail}" aria-label="${texts.invalidTag}: ${texts.invalidTagDetail}">${texts.error}</span>`
  }</div>${
    (buttons.length > 0 || revert) &&
    html`<div class="tb-group visual-builder__focused-toolbar__multiple-field-toolbar">${buttons}${revert}</div>`
  }${appsView(model, on)}${model.reason && html`<span class="tb-reason" data-testid="visual-builder__focused-toolbar__disabled-reason">${model.reason}</span>`}${
    model.requestAccess &&
    html`<button type="button" class="tb-request" data-testid="visual-builder__focused-toolbar__request-edit-access" ${on('click', model.requestAccess)}>${texts.requestAccess}</button>`
  }${
    model.linkVariant &&
    html`<button type="button" class="tb-request" data-testid="visual-builder__focused-toolbar__link-variant" ${on('click', model.linkVariant)}>${texts.linkVariant}</button>`
  }`;
}
