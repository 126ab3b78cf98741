import { computePosition, flip, offset, type Placement, shift } from '@floating-ui/dom';
import { addStyles, LAYER_OWNED, type PageWindow } from '../dom.ts';
import { el } from '../el.ts';
import { iconElement, iconFor } from './icons.ts';
import { PAGE_CSS, SHADOW_CSS } from './styles.ts';
import { drawToolbar } from './toolbar-view.ts';

/**
 * The builder's surfaces, plain DOM in one open shadow root: hover outline,
 * custom cursor, focus overlay with outline, focused-field toolbar and add-instance buttons. The
 * literal class names of 3.2.5 are kept inside the shadow root so the editor's tests and people
 * reading the page recognise them. This module only draws; builder.ts decides what to draw.
 */

export type { ToolbarButton, ToolbarModel } from './toolbar-view.ts';

export interface AddButtonModel {
  label: string;
  /** Shown as text beside the plus (modular blocks). */
  withLabel: boolean;
  title: string;
  disabled: boolean;
  placement: Placement;
  run(button: HTMLButtonElement): void;
}

import type { ToolbarModel } from './toolbar-view.ts';

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
  renderAddButtons(element: Element | null, buttons: AddButtonModel[]): void;
  /** Re-measures the outlines after scroll, resize or page changes. */
  reposition(): void;
  /** Whether an event target is part of the builder UI. */
  owns(target: EventTarget | null): boolean;
  destroy(): void;
}

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

export function createUi(win: PageWindow): BuilderUi {
  const doc = win.document;

  const host = el(doc, 'div', 'visual-builder__container');
  host.setAttribute('data-testid', 'visual-builder__container');
  // Page morphs keep the layer's own nodes (site/morph.ts); clicks on it are the builder's.
  host.setAttribute(LAYER_OWNED, '');
  host.setAttribute('data-studio-ui', 'true');
  const root = host.attachShadow({ mode: 'open' });
  // Constructable sheets: preview pages run under `style-src 'self'`, which blocks <style> elements.
  const sheets = typeof win.CSSStyleSheet === 'function' && 'adoptedStyleSheets' in root;
  const sheet = (css: string) => {
    const made = new win.CSSStyleSheet();
    made.replaceSync(css);
    return made;
  };
  const pageSheet = sheets ? sheet(PAGE_CSS) : null;
  if (sheets && pageSheet) {
    root.adoptedStyleSheets = [sheet(SHADOW_CSS)];
    doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, pageSheet];
  } else {
    el(doc, 'style', '', root).textContent = SHADOW_CSS;
    addStyles(win, PAGE_CSS);
  }

  const cursor = el(doc, 'div', 'visual-builder__cursor', root);
  const cursorWrapper = el(doc, 'div', 'visual-builder__cursor-wrapper', cursor);
  const cursorIcon = el(doc, 'span', 'visual-builder__cursor-icon', cursorWrapper);
  // One tooltip for every `data-tooltip` element, placed by measuring the viewport (flips to stay on screen).
  const tooltip = el(doc, 'div', 'visual-builder__tooltip', root);
  tooltip.setAttribute('role', 'tooltip');
  tooltip.hidden = true;
  let tooltipAnchor: HTMLElement | null = null;
  const hover = el(doc, 'div', 'visual-builder__hover-outline visual-builder__hover-outline--unclickable', root);
  hover.hidden = true;
  const overlayWrapper = el(doc, 'div', 'visual-builder__overlay__wrapper', root);
  overlayWrapper.setAttribute('data-testid', 'visual-builder__overlay__wrapper');
  const side = (name: string) =>
    el(doc, 'div', `visual-builder__overlay visual-builder__overlay--${name}`, overlayWrapper);
  const [top, left, right, bottom] = [side('top'), side('left'), side('right'), side('bottom')];
  const outline = el(doc, 'div', 'visual-builder__overlay--outline', overlayWrapper);
  const toolbar = el(doc, 'div', 'visual-builder__focused-toolbar', root);
  toolbar.setAttribute('role', 'toolbar');
  toolbar.hidden = true;
  const adds = el(doc, 'div', 'visual-builder__add-buttons', root);
  doc.body.append(host);

  let hovered: Element | null = null;
  let focused: Element | null = null;
  let addAnchor: Element | null = null;
  let addButtons: { button: HTMLButtonElement; placement: Placement }[] = [];

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

  const floatOver = (reference: Element, floating: HTMLElement, placement: Placement, gap: number) =>
    computePosition(reference, floating, {
      strategy: 'fixed',
      placement,
      middleware: [offset(gap), flip(), shift({ padding: 8 })],
    })
      .then(({ x, y }) => {
        floating.style.left = `${x}px`;
        floating.style.top = `${y}px`;
      })
      // Without layout (a test DOM) nothing can be placed; the UI still works.
      .catch(() => undefined);

  const placeToolbar = () => {
    if (focused && !toolbar.hidden) void floatOver(focused, toolbar, 'top-start', 8);
  };
  const placeAdds = () => {
    if (!addAnchor) return;
    for (const { button, placement } of addButtons) void floatOver(addAnchor, button, placement, -16);
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
    void computePosition(anchor, tooltip, {
      strategy: 'fixed',
      placement: anchor.classList.contains('tooltip-below') ? 'bottom' : 'top',
      middleware: [offset(8), flip({ padding: 8 }), shift({ padding: 8 })],
    })
      .then(({ x, y, placement }) => {
        if (tooltipAnchor !== anchor) return;
        tooltip.style.left = `${x}px`;
        tooltip.style.top = `${y}px`;
        tooltip.setAttribute('data-placement', placement);
      })
      .catch(() => undefined);
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
    showCursor(x, y, icon, disabled) {
      cursor.classList.add('visible');
      // Rebuilt only when the type changes: the pointer moves far more often.
      if (cursor.getAttribute('data-icon') !== icon) {
        cursor.setAttribute('data-icon', icon);
        cursorIcon.replaceChildren(iconElement(doc, icon), iconFor(icon)[1]);
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
      if (tooltipAnchor && toolbar.contains(tooltipAnchor)) hideTooltip();
      toolbar.replaceChildren();
      toolbar.hidden = !model;
      if (!model) return;
      drawToolbar(doc, toolbar, model);
      placeToolbar();
    },
    renderAddButtons(element, buttons) {
      if (tooltipAnchor && adds.contains(tooltipAnchor)) hideTooltip();
      adds.replaceChildren();
      addAnchor = element;
      addButtons = [];
      if (!element) return;
      for (const spec of buttons) {
        const button = el(doc, 'button', 'visual-builder__add-button', adds);
        button.type = 'button';
        button.setAttribute('data-testid', 'visual-builder-add-instance-button');
        button.setAttribute('aria-label', spec.title);
        button.setAttribute('data-tooltip', spec.title);
        button.disabled = spec.disabled;
        button.append('+');
        if (spec.withLabel) {
          button.classList.add('visual-builder__add-button--with-label');
          const text = el(doc, 'span', 'visual-builder__add-button-label', button);
          text.textContent = spec.label;
        }
        button.addEventListener('click', () => spec.run(button));
        addButtons.push({ button, placement: spec.placement });
      }
      placeAdds();
    },
    reposition() {
      if (hovered?.isConnected) place(hover, hovered.getBoundingClientRect());
      else if (hovered) ui.hideHover();
      placeFocus();
      placeToolbar();
      placeAdds();
    },
    owns: (target) => target === host || (target instanceof win.Node && host.contains(target)),
    destroy() {
      host.remove();
      if (pageSheet) doc.adoptedStyleSheets = doc.adoptedStyleSheets.filter((kept) => kept !== pageSheet);
    },
  };
  return ui;
}
