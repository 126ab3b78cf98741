import type { Config } from '../config/types.ts';
import { CSLP, LAYER_OWNED, type PageWindow } from '../dom.ts';
import { tagOf } from './instances.ts';
import { textsOf } from './text.ts';

/**
 * The floating "Start Editing" link: on a builder page opened
 * outside the editor, it opens the page in the editor's visual editor. Its address is computed
 * again on hover, focus and click, so it always carries the page's current URL.
 */

const CORNERS = ['bottom-left', 'bottom-right', 'top-left', 'top-right'] as const;
/** The button's distance from its corner. */
const OFFSET_PX = 30;

/**
 * `{editor}/#!/stack/{apiKey}/visual-editor?branch&environment&target-url&locale` (query inside the
 * fragment): the route 4.3+ opens; 3.2.5's `…/visual-builder` is the app's old name for it.
 */
export function visualBuilderLink(win: PageWindow, config: Config): string {
  const { apiKey, branch, environment, locale } = config.stackDetails;
  const params = new URLSearchParams();
  if (branch) params.set('branch', branch);
  if (environment) params.set('environment', environment);
  params.set('target-url', win.location.href);
  const first = win.document.querySelector(`[${CSLP}]`);
  const pageLocale = (first && tagOf(first)?.locale) || locale;
  if (pageLocale) params.set('locale', pageLocale);
  return new URL(`/#!/stack/${apiKey}/visual-editor?${params}`, config.clientUrlParams.url).href;
}

/** Shows the link when the configuration enables it; returns its removal. */
export function showStartEditing(win: PageWindow, config: Config): () => void {
  const { enable, position } = config.editInVisualBuilderButton;
  if (!enable) return () => undefined;
  const doc = win.document;
  const corner = (CORNERS as readonly string[]).includes(position) ? position : 'bottom-right';
  const link = doc.createElement('a');
  link.className = 'visual-builder__start-editing-btn';
  link.setAttribute('data-testid', 'vcms-start-editing-btn');
  link.setAttribute(LAYER_OWNED, '');
  link.textContent = textsOf(config.messages).startEditing;
  const [vertical, horizontal] = corner.split('-') as [string, string];
  // CSSOM writes: the page's CSP forbids inline style attributes, not these.
  Object.assign(link.style, {
    position: 'fixed',
    zIndex: '1000',
    padding: '8px 16px',
    borderRadius: '4px',
    background: '#6c5ce7',
    color: '#fff',
    font: '600 14px system-ui, sans-serif',
    textDecoration: 'none',
    [vertical]: `${OFFSET_PX}px`,
    [horizontal]: `${OFFSET_PX}px`,
  });
  const refresh = () => {
    link.href = visualBuilderLink(win, config);
  };
  refresh();
  for (const type of ['mouseenter', 'focus', 'click']) link.addEventListener(type, refresh);
  doc.body.append(link);
  return () => link.remove();
}
