import { parseCslp } from '../cslp/parse.ts';
import { addStyles, CSLP, leafTagged, type PageWindow } from '../dom.ts';
import { type NoMessages, readDiffValue, type TimelineReceived } from '../protocol.ts';
import type { Channel } from '../transport/channel.ts';

/**
 * The editor's compare view: it asks for the page's base
 * route and the content of every leaf tag, sends the diff of two versions as HTML with
 * `<cs-compare>` wrappers, and later asks to remove it. The diff HTML comes from another window,
 * so it goes through the sanitiser before it touches the DOM; the sanitiser (DOMPurify) is loaded
 * only then. Removing a diff puts the original nodes back, listeners and all.
 */

export type Sanitize = (html: string, win: PageWindow) => DocumentFragment;

/** 3.2.5's list: these carry their value in attributes, so the diff outlines them instead. */
const VOID = new Set('area base br col embed hr img input keygen link meta param source track wbr video'.split(' '));
const WRAPPER = 'cs-compare';
const VOID_CLASS = 'cs-compare__void--';
const CSS = `${WRAPPER}.${WRAPPER}--added{background:rgba(0,122,82,.2);border-bottom:2px solid rgb(0,122,82)}
${WRAPPER}.${WRAPPER}--removed{background:rgba(214,36,0,.2);text-decoration:line-through 2px solid rgb(214,36,0)}
.${VOID_CLASS}added{background:rgba(0,122,82,.2);outline:2px solid rgb(0,122,82)}
.${VOID_CLASS}removed{background:rgba(214,36,0,.2);outline:2px solid rgb(214,36,0)}`;

const isVoid = (element: Element) => VOID.has(element.localName);

/** Adjacent wrappers of one kind become one, so a changed phrase reads as one mark. */
function mergeAdjacent(win: PageWindow, className: string): void {
  for (const wrapper of Array.from(win.document.querySelectorAll(`.${className}`))) {
    const next = wrapper.nextSibling;
    if (next instanceof win.Element && next.classList.contains(className)) {
      next.prepend(...wrapper.childNodes);
      wrapper.remove();
    }
  }
}

export function handleTimeline(
  win: PageWindow,
  channel: Channel<NoMessages, TimelineReceived>,
  sanitizer: () => Promise<Sanitize>,
): void {
  const doc = win.document;
  const originals = new Map<Element, Node[]>();
  let styled = false;

  channel.on('send-current-base-route', () => ({ url: win.location.href.split('?')[0] }));

  channel.on('send-cslp-data', () => {
    const values: Record<string, string> = {};
    for (const element of leafTagged(doc)) {
      const tag = element.getAttribute(CSLP) as string;
      // 4.3+ leaves out tags that are no tags (isValidCslp), in the contents and in the diff.
      if (!parseCslp(tag)) continue;
      values[tag] = isVoid(element)
        ? Array.from(element.attributes, (a) => `${a.name} -> ${a.value}\n`).join('')
        : element.innerHTML;
    }
    return values;
  });

  channel.on('diff-value', async (data) => {
    const { diff, type } = readDiffValue(data);
    const operation = type === 'base' ? 'removed' : 'added';
    const sanitize = await sanitizer();
    if (!styled) addStyles(win, CSS);
    styled = true;
    for (const element of leafTagged(doc)) {
      const tag = element.getAttribute(CSLP) as string;
      const html = Object.hasOwn(diff, tag) ? diff[tag] : undefined;
      if (!html || !parseCslp(tag)) continue;
      if (isVoid(element)) {
        element.classList.add(`${VOID_CLASS}${operation}`);
        continue;
      }
      if (!originals.has(element)) originals.set(element, Array.from(element.childNodes));
      element.replaceChildren(sanitize(html, win));
    }
    mergeAdjacent(win, `${WRAPPER}--${operation}`);
  });

  channel.on('remove-diff', () => {
    for (const [element, nodes] of originals) element.replaceChildren(...nodes);
    originals.clear();
    // Elements re-rendered since the diff lost their originals: unwrap what is left, as 3.2.5 does.
    for (const wrapper of Array.from(doc.querySelectorAll(WRAPPER))) wrapper.replaceWith(...wrapper.childNodes);
    for (const element of Array.from(doc.querySelectorAll(`.${VOID_CLASS}added, .${VOID_CLASS}removed`)))
      element.classList.remove(`${VOID_CLASS}added`, `${VOID_CLASS}removed`);
  });
}
