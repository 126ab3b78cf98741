import type { Placement } from '@floating-ui/dom';
import { addStyles, type PageWindow } from '../dom.ts';
import { el } from '../el.ts';
import { TOOLTIP_BELOW_WITHIN_PX } from '../timing.ts';
import { float } from '../view/float.ts';
import { layerHost } from '../view/host.ts';
import { html, when } from '../view/html.ts';
import { surface } from '../view/render.ts';
import { icon, iconFor } from './icons.ts';
import { PAGE_CSS, SHADOW_CSS } from './styles.ts';
import { TEXTS, type Texts } from './text.ts';
import {
  type HoverLabelModel,
  hoverLabelView,
  normalizeSearch,
  type ToolbarModel,
  toolbarView,
} from './toolbar-view.ts';

/**
 * The builder's surfaces, templates in one open shadow root: hover outline,
 * custom cursor, focus overlay with outline, focused-field toolbar and add-instance buttons. The
 * literal class names of 3.2.5 are kept inside the shadow root so the editor's tests and people
 * reading the page recognise them. This module only draws; builder.ts decides what to draw.
 */

export type { AppButton, HoverLabelModel, ToolbarButton, ToolbarModel } from './toolbar-view.ts';

export interface AddButtonModel {
  label: string;
  /** Shown as text beside the plus (modular blocks). */
  withLabel: boolean;
  title: string;
  disabled: boolean;
  placement: Placement;
  run(button: HTMLButtonElement): void;
}

export interface BuilderUi {
  host: HTMLElement;
  root: ShadowRoot;
  showHover(element: Element, disabled: boolean): void;
  hideHover(): void;
  showCursor(x: number, y: number, icon: string, disabled: boolean): void;
  hideCursor(): void;
  showFocus(element: Element, disabled: boolean): void;
  hideFocus(): void;
  renderToolbar(model: ToolbarModel | null): void;
  /** The hover toolbar (4.x) over `element`, or none. */
  renderHoverLabel(element: Element | null, model?: HoverLabelModel): void;
  renderAddButtons(element: Element | null, buttons: AddButtonModel[]): void;
  /** Re-measures the outlines after scroll, resize or page changes. */
  reposition(): void;
  /** Whether an event target is part of the builder UI. */
  owns(target: EventTarget | null): boolean;
  destroy(): void;
}

const SIDES = ['top', 'left', 'right', 'bottom'] as const;

interface Box {
  top: number;
  left: number;
  width: number;
  height: number;
}

function place(box: HTMLElement, rect: Box): void {
  box.style.top = `${rect.top}px`;
  box.style.left = `${rect.left}px`;
  box.style.width = `${rect.width}px`;
  box.style.height = `${rect.height}px`;
}

export function createUi(win: PageWindow, texts: Texts = TEXTS): BuilderUi {
  const doc = win.document;

  const { host, root } = layerHost(win, 'visual-builder__container', SHADOW_CSS);
  // The few rules for site elements (draft and variant outlines) go to the page itself.
  const removePageStyles = addStyles(win, PAGE_CSS);

  const surfaces = el(doc, 'div', 'visual-builder__surfaces', root);
  // Drawn once: the surfaces below render into their own parts of it.
  surfaces.innerHTML =
    html`<div class="visual-builder__cursor"><div class="visual-builder__cursor-wrapper"><span class="visual-builder__cursor-icon"></span></div></div><div class="visual-builder__tooltip" role="tooltip" hidden></div><div class="visual-builder__hover-outline visual-builder__hover-outline--unclickable" hidden></div><div class="visual-builder__overlay__wrapper" data-testid="visual-builder__overlay__wrapper">${SIDES.map(
      (side) => html`<div class="visual-builder__overlay visual-builder__overlay--${side}"></div>`,
    )}<div class="visual-builder__overlay--outline"></div></div><div class="visual-builder__focused-toolbar" role="toolbar" hidden></div><div class="visual-builder__hover-toolbar" data-testid="visual-builder__hover-toolbar" hidden></div><div class="visual-builder__add-buttons"></div>`.markup;
  const $ = (selector: string) => surfaces.querySelector(selector) as HTMLElement;
  const cursor = $('.visual-builder__cursor');
  const cursorWrapper = $('.visual-builder__cursor-wrapper');
  const cursorIcon = $('.visual-builder__cursor-icon');
  // One tooltip for every `data-tooltip` element, placed by measuring the viewport (flips to stay on screen).
  const tooltip = $('.visual-builder__tooltip');
  let tooltipAnchor: HTMLElement | null = null;
  const hover = $('.visual-builder__hover-outline');
  const overlayWrapper = $('.visual-builder__overlay__wrapper');
  const [top, left, right, bottom] = SIDES.map((side) => $(`.visual-builder__overlay--${side}`)) as [
    HTMLElement,
    HTMLElement,
    HTMLElement,
    HTMLElement,
  ];
  const outline = $('.visual-builder__overlay--outline');
  const toolbar = $('.visual-builder__focused-toolbar');
  const adds = $('.visual-builder__add-buttons');
  const hoverLabel = $('.visual-builder__hover-toolbar');
  let labelled: Element | null = null;
  doc.body.append(host);

  const closed = new AbortController();
  const toolbarSurface = surface(toolbar, closed.signal);
  const addsSurface = surface(adds, closed.signal);
  const cursorSurface = surface(cursorIcon, closed.signal);
  const hoverLabelSurface = surface(hoverLabel, closed.signal);
  // The app list's search (4.x) filters in place: a render would take the caret away.
  const filterApps = (list: Element) => {
    const wanted = normalizeSearch((list.querySelector('.tb-app-search') as HTMLInputElement).value);
    let shown = 0;
    for (const item of list.querySelectorAll<HTMLElement>('.tb-app-item')) {
      item.hidden = !item.getAttribute('data-search')?.includes(wanted);
      if (!item.hidden) shown++;
    }
    (list.querySelector('.tb-no-apps') as HTMLElement).hidden = shown > 0;
  };
  toolbar.addEventListener(
    'input',
    (event) => {
      const list = (event.target as Element).closest('.tb-app-list');
      if (list) filterApps(list);
    },
    { signal: closed.signal },
  );

  let hovered: Element | null = null;
  let focused: Element | null = null;
  let addAnchor: Element | null = null;
  let addModels: AddButtonModel[] = [];

  const placeFocus = () => {
    if (!focused) return;
    const r = focused.getBoundingClientRect();
    const vw = win.innerWidth;
    const vh = win.innerHeight;
    place(top, { top: 0, left: 0, width: vw, height: Math.max(r.top, 0) });
    place(bottom, { top: r.bottom, left: 0, width: vw, height: Math.max(vh - r.bottom, 0) });
    place(left, { top: r.top, left: 0, width: Math.max(r.left, 0), height: r.height });
    place(right, { top: r.top, left: r.right, width: Math.max(vw - r.right, 0), height: r.height });
    place(outline, r);
  };

  const placeToolbar = () => {
    if (focused && !toolbar.hidden) void float(focused, toolbar, 'top-start');
  };
  const placeHoverLabel = () => {
    if (labelled && !hoverLabel.hidden) void float(labelled, hoverLabel, 'top-start');
  };
  const placeAdds = () => {
    if (!addAnchor) return;
    const anchor = addAnchor;
    addModels.forEach(({ placement }, i) => {
      const button = adds.children[i];
      if (button) void float(anchor, button as HTMLElement, placement, { gap: -16 });
    });
  };

  const hideTooltip = () => {
    tooltipAnchor = null;
    tooltip.hidden = true;
    // Set again once the next position is measured.
    tooltip.removeAttribute('data-placement');
  };
  const showTooltip = (event: Event) => {
    const anchor = (event.target as Element | null)?.closest?.<HTMLElement>('[data-tooltip]') ?? null;
    if (!anchor) return hideTooltip();
    if (anchor === tooltipAnchor) return;
    tooltipAnchor = anchor;
    tooltip.textContent = anchor.getAttribute('data-tooltip');
    tooltip.hidden = false;
    // The toolbar of a field near the top has its tooltips below, over the field rather than off the frame's edge.
    const nearTop =
      focused !== null && toolbar.contains(anchor) && focused.getBoundingClientRect().top <= TOOLTIP_BELOW_WITHIN_PX;
    const below = nearTop || anchor.classList.contains('tooltip-below');
    void float(anchor, tooltip, below ? 'bottom' : 'top').then((side) => {
      if (side && tooltipAnchor === anchor) tooltip.setAttribute('data-placement', side);
    });
  };
  // A render keeps the element under the pointer: its tooltip follows its text, or goes with it.
  const refreshTooltip = () => {
    if (!tooltipAnchor) return;
    if (tooltipAnchor.isConnected && tooltipAnchor.hasAttribute('data-tooltip'))
      tooltip.textContent = tooltipAnchor.getAttribute('data-tooltip');
    else hideTooltip();
  };
  root.addEventListener('pointerover', showTooltip);
  root.addEventListener('focusin', showTooltip);
  root.addEventListener('pointerout', (event) => {
    if (!tooltipAnchor?.contains((event as PointerEvent).relatedTarget as Node | null)) hideTooltip();
  });
  root.addEventListener('focusout', hideTooltip);

  const ui: BuilderUi = {
    host,
    root,
    showHover(element, disabled) {
      hovered = element;
      hover.hidden = false;
      hover.classList.toggle('visual-builder__hover-outline--disabled', disabled);
      place(hover, element.getBoundingClientRect());
    },
    hideHover() {
      hovered = null;
      hover.hidden = true;
    },
    showCursor(x, y, name, disabled) {
      cursor.classList.add('visible');
      // Drawn only when the type changes: the pointer moves far more often.
      if (cursor.getAttribute('data-icon') !== name) {
        cursor.setAttribute('data-icon', name);
        const label = iconFor(name)[1];
        cursorSurface.render(() => html`${icon(name)}${label && texts[label]}`);
      }
      cursorWrapper.classList.toggle('visual-builder__cursor-disabled', disabled);
      cursor.style.left = `${x}px`;
      cursor.style.top = `${y}px`;
    },
    hideCursor() {
      cursor.classList.remove('visible');
    },
    showFocus(element, disabled) {
      focused = element;
      overlayWrapper.classList.add('visible');
      outline.classList.toggle('disabled', disabled);
      placeFocus();
    },
    hideFocus() {
      focused = null;
      overlayWrapper.classList.remove('visible');
      ui.renderToolbar(null);
      ui.renderAddButtons(null, []);
    },
    renderToolbar(model) {
      // An open app list stays open, and filtered, across the renders the editor's answers cause.
      const appsOpen = toolbar.querySelector('.tb-app-list:not([hidden])') !== null;
      toolbarSurface.render(() => (model ? toolbarView(model, toolbarSurface.on) : html``));
      const apps = appsOpen ? toolbar.querySelector<HTMLElement>('.tb-app-list') : null;
      if (apps) {
        apps.hidden = false;
        apps.previousElementSibling?.setAttribute('aria-expanded', 'true');
        filterApps(apps);
      }
      toolbar.hidden = !model;
      refreshTooltip();
      placeToolbar();
    },
    renderHoverLabel(element, model) {
      labelled = model ? element : null;
      hoverLabelSurface.render(() => (labelled && model ? hoverLabelView(model) : html``));
      hoverLabel.hidden = !labelled;
      placeHoverLabel();
    },
    renderAddButtons(element, buttons) {
      addAnchor = element;
      addModels = element ? buttons : [];
      addsSurface.render(
        () =>
          html`${addModels.map(
            (spec) =>
              html`<button type="button" class="visual-builder__add-button${spec.withLabel ? ' visual-builder__add-button--with-label' : ''}" data-testid="visual-builder-add-instance-button" aria-label="${spec.title}" data-tooltip="${spec.title}" ${addsSurface.on('click', (_event, button) => spec.run(button as HTMLButtonElement))} ${when(spec.disabled, 'disabled')}>+${
                spec.withLabel && html`<span class="visual-builder__add-button-label">${spec.label}</span>`
              }</button>`,
          )}`,
      );
      refreshTooltip();
      placeAdds();
    },
    reposition() {
      if (hovered?.isConnected) place(hover, hovered.getBoundingClientRect());
      else if (hovered) ui.hideHover();
      placeFocus();
      placeToolbar();
      placeHoverLabel();
      placeAdds();
    },
    owns: (target) => target === host || (target instanceof win.Node && host.contains(target)),
    destroy() {
      closed.abort();
      host.remove();
      removePageStyles();
    },
  };
  return ui;
}
