import type { Config } from '../config/types.ts';
import { parseCslp } from '../cslp/parse.ts';
import {
  addStyles,
  BUTTON_POSITION,
  CSLP,
  isFramed,
  isOpenedInTab,
  LAYER_OWNED,
  type PageWindow,
  TOOLTIP_ID,
} from '../dom.ts';
import { logger } from '../logger.ts';
import type { ScrollRequest, Sent } from '../protocol.ts';
import type { Channel } from '../transport/channel.ts';
import { editLink } from './edit-link.ts';
import { inSafeZone, tooltipPosition } from './position.ts';
import { editButtonAllowed } from './visibility.ts';

/**
 * The floating edit tooltip: hovering a tagged element outlines it
 * and places the tooltip beside it; Edit asks the editor to scroll to the field when framed (or
 * opened by the editor in a new tab), and opens the field's edit page in a new tab otherwise. An
 * element with an `href` gets the two-button variant with "Go to link". The DOM ids and
 * `data-test-id`s are 3.2.5's, so the editor's own tooling finds them.
 */
export interface EditButton {
  /** Creates or removes the tooltip as the visibility rule now says (window type changes). */
  toggle(): void;
  destroy(): void;
}

const HIGHLIGHT = 'cslp-edit-mode';
const PENCIL =
  '<svg width="16" height="16" viewBox="0 0 16 16" fill="none" aria-hidden="true"><path d="M8.1 3.5.3 11.3c-.2.2-.3.4-.3.7v3c0 .6.4 1 1 1h3c.3 0 .5-.1.7-.3l7.8-7.8-4.4-4.4Zm7.6-.2-3-3a1 1 0 0 0-1.4 0L9.5 2.1l4.4 4.4 1.8-1.8a1 1 0 0 0 0-1.4Z" fill="currentColor"/></svg>';
const LINK =
  '<svg width="16" height="16" viewBox="0 0 16 16" fill="none" aria-hidden="true"><path d="M2.7 2.7h10.6v10.6H6.7V16h6.6a2.7 2.7 0 0 0 2.7-2.7V2.7A2.7 2.7 0 0 0 13.3 0H2.7A2.7 2.7 0 0 0 0 2.7v6.6h2.7V2.7Z" fill="currentColor"/><path d="M6.9 7.1 1 13l1.9 1.9 5.9-6 2.1 2.1V5h-6l2 2.1Z" fill="currentColor"/></svg>';
const CSS = `#${TOOLTIP_ID}{position:fixed;top:-100%;left:0;z-index:200!important;display:flex;width:72px;height:35px;padding:0;margin:0;border:0;border-radius:8px;background:#fff;color:#718096;box-shadow:0 4px 15px rgba(0,0,0,.15);font:600 14px/1 system-ui,sans-serif;cursor:pointer}
#${TOOLTIP_ID} div{display:flex;flex:1;align-items:center;justify-content:center;gap:6px;height:100%}
#${TOOLTIP_ID} .cslp-tooltip-child:hover{color:#475161}
#${TOOLTIP_ID} .cslp-tooltip-child+.cslp-tooltip-child{border-left:1px solid #e2e8f0}
.${HIGHLIGHT}{outline:1px dashed #6c5ce7!important}`;

export function createEditButton(win: PageWindow, config: Config, livePreview: Channel<Sent>): EditButton {
  const doc = win.document;
  let tooltip: HTMLButtonElement | null = null;
  let single: HTMLElement;
  let multiple: HTMLElement;
  let styled = false;

  function part(testId: string, html: string, onClick: () => void, title?: string): HTMLElement {
    const div = doc.createElement('div');
    div.className = 'cslp-tooltip-child';
    div.setAttribute('data-test-id', testId);
    if (title) div.setAttribute('data-title', title);
    div.innerHTML = html;
    div.addEventListener('click', onClick);
    return div;
  }

  function edit(): void {
    const tag = parseCslp(tooltip?.getAttribute('current-data-cslp') ?? '');
    if (!tag) return;
    // In a new tab (4.x) the editor that opened the page scrolls to the field too.
    if (isFramed(win) || isOpenedInTab(win)) {
      const request: ScrollRequest = {
        field: tag.fieldPathWithIndex,
        content_type_uid: tag.content_type_uid,
        entry_uid: tag.entry_uid,
        variant: tag.variant,
        locale: tag.locale,
      };
      livePreview.send('scroll', request).catch((error) => logger.debug(error));
      return;
    }
    try {
      win.open(editLink(config, tag), '_blank');
    } catch (error) {
      logger.error((error as Error).message);
    }
  }

  function goToLink(): void {
    const href = tooltip?.getAttribute('current-href');
    if (href) win.location.assign(href);
  }

  function place(): void {
    const element = config.elements.highlightedElement;
    if (!element || !tooltip) return;
    // A page update may have taken the tooltip out of the body.
    if (!tooltip.isConnected) doc.body.append(tooltip);
    const { top, left } = tooltipPosition(
      element.getBoundingClientRect(),
      element.getAttribute(BUTTON_POSITION) || config.editButton.position,
    );
    tooltip.style.top = `${top}px`;
    tooltip.style.left = `${left}px`;
    const variant = element.hasAttribute('href') ? multiple : single;
    if (tooltip.firstElementChild !== variant) tooltip.replaceChildren(variant);
  }

  /** The first tagged element on the event path below `<body>`. */
  function firstTagged(path: EventTarget[]): Element | undefined {
    for (const node of path) {
      if (node === doc.body) return undefined;
      if (node instanceof win.Element && node.hasAttribute(CSLP)) return node;
    }
    return undefined;
  }

  function hover(event: MouseEvent): void {
    const { windowType } = config;
    if (!tooltip || !config.editButton.enable || (windowType !== 'preview' && windowType !== 'independent')) return;
    const target = firstTagged(event.composedPath());
    if (!target) return;
    const pointer = { x: event.clientX, y: event.clientY };
    if (
      inSafeZone(pointer, tooltip.getBoundingClientRect(), config.editButton.position, target.getBoundingClientRect())
    )
      return;
    config.elements.highlightedElement?.classList.remove(HIGHLIGHT);
    target.classList.add(HIGHLIGHT);
    config.elements.highlightedElement = target;
    place();
    tooltip.setAttribute('current-data-cslp', target.getAttribute(CSLP) ?? '');
    tooltip.setAttribute('current-href', target.getAttribute('href') ?? '');
  }

  function create(): void {
    if (!styled) addStyles(win, CSS);
    styled = true;
    tooltip = doc.createElement('button');
    tooltip.type = 'button';
    tooltip.id = TOOLTIP_ID;
    tooltip.setAttribute('data-test-id', 'cs-cslp-tooltip');
    tooltip.setAttribute(LAYER_OWNED, '');
    single = part('cslp-singular-edit-button', `${PENCIL}Edit`, edit);
    single.classList.add('singular');
    multiple = doc.createElement('div');
    multiple.append(
      part('cslp-multiple-edit-button', PENCIL, edit, 'Edit'),
      part('cslp-multiple-external-link-button', LINK, goToLink, 'Go to link'),
    );
    tooltip.append(single);
    doc.body.append(tooltip);
    place();
    win.addEventListener('scroll', place, { passive: true });
    win.addEventListener('mouseover', hover);
  }

  function remove(): void {
    win.removeEventListener('scroll', place);
    win.removeEventListener('mouseover', hover);
    tooltip?.remove();
    tooltip = null;
  }

  return {
    toggle() {
      const allowed = editButtonAllowed(config, new URL(win.location.href), isFramed(win));
      if (allowed && !tooltip) create();
      else if (!allowed && tooltip) remove();
    },
    destroy: remove,
  };
}
