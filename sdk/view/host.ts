import { addStyles, LAYER_OWNED, type PageWindow } from '../dom.ts';
import { css } from './css.ts';

/**
 * What every layer's shadow root starts from: `all: initial` stops the page's inherited
 * properties too; system fonts only, so nothing loads from a font service.
 */
const RESET_CSS = css`
:host { all: initial; }
* { box-sizing: border-box; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
[hidden] { display: none !important; }
`;

/**
 * A layer's container on the page with its open shadow root, styled by the reset and `styles`: the
 * site's CSS cannot reach in and ours cannot leak out. Page morphs keep it (it is the layer's own), and the
 * editor recognises it as studio UI. `name` is its class and test id.
 */
export function layerHost(win: PageWindow, name: string, styles: string): { host: HTMLElement; root: ShadowRoot } {
  const host = win.document.createElement('div');
  host.className = name;
  host.setAttribute('data-testid', name);
  host.setAttribute(LAYER_OWNED, '');
  host.setAttribute('data-studio-ui', 'true');
  const root = host.attachShadow({ mode: 'open' });
  addStyles(win, RESET_CSS + styles, root);
  return { host, root };
}
