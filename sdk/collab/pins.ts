import { later, observe, onAbort } from '../abort.ts';
import { debounce } from '../debounce.ts';
import { el } from '../el.ts';
import { PIN_OFFSET, THREAD_MUTATION_DEBOUNCE_MS, THREAD_RETRIES } from '../timing.ts';
import { type CollabContext, logError, me, RESOLVED, type Thread, userMap } from './context.ts';
import { displayName, elementAt, initials, pageRoute, relativeText, xpathOf } from './text.ts';
import { closePopup, openPopup, removeThread } from './thread-popup.ts';

/**
 * Pins: one per open thread, at its point on its element, following the page; a click on the
 * page in feedback mode starts a new thread there. Paused collaboration hides the pins.
 */

export function applyPause({ pins, collab }: CollabContext): void {
  pins.classList.toggle('collab-pins--paused', !collab.enable || collab.pauseFeedback);
}

function placePin({ win }: CollabContext, pin: HTMLElement, target: Element, position: { x: number; y: number }) {
  const rect = target.getBoundingClientRect();
  pin.style.left = `${rect.left + win.scrollX + position.x * rect.width - PIN_OFFSET.left}px`;
  pin.style.top = `${rect.top + win.scrollY + position.y * rect.height - PIN_OFFSET.up}px`;
}

function addPin(ctx: CollabContext, thread: Thread, target: Element): HTMLButtonElement {
  const pin = el(ctx.doc, 'button', 'collab-pin', ctx.pins);
  pin.type = 'button';
  pin.setAttribute('threaduid', thread._id);
  pin.setAttribute('data-testid', 'collab-pin');
  // The editor's own pins carry these; a new thread is created from them.
  pin.setAttribute('field-path', thread.elementXPath);
  pin.setAttribute('relative', relativeText(thread.position));
  const author = displayName(userMap(ctx).get(thread.createdBy) ?? { uid: '', email: thread.author });
  pin.textContent = initials(author);
  // A native tooltip: the browser keeps it on screen.
  pin.title = author;
  placePin(ctx, pin, target, thread.position);
  pin.addEventListener('click', (event) => {
    event.stopPropagation();
    const entry = [...ctx.threads.values()].find((t) => t.pin === pin);
    if (entry) openPopup(ctx, entry.thread, pin);
  });
  ctx.threads.set(thread._id, { thread, pin });
  return pin;
}

/** Renders pins; a missing element is retried 5 times 1 s apart, then reported. */
export function renderThreads(ctx: CollabContext, list: Thread[], attempt = 0): void {
  const missing: Thread[] = [];
  for (const given of list) {
    // Our own copy: resolving or saving must not change the editor's objects.
    const thread = { ...given, position: { ...given.position } };
    if (thread.threadState === RESOLVED) continue;
    const target = elementAt(ctx.doc, thread.elementXPath);
    if (!target) {
      missing.push(thread);
      continue;
    }
    const known = ctx.threads.get(thread._id);
    if (known) {
      known.thread = thread;
      known.pin.hidden = false;
      placePin(ctx, known.pin, target, thread.position);
    } else addPin(ctx, thread, target);
  }
  if (missing.length === 0) return;
  if (attempt < THREAD_RETRIES) later(ctx.signal, () => renderThreads(ctx, missing, attempt + 1), ctx.retryMs);
  else
    ctx.channel
      .send('collab-missing-threads', { payload: { isElementPresent: false }, threadUids: missing.map((t) => t._id) })
      .catch(logError);
}

/** Pins follow their elements; a pin whose element is gone hides until it is back. */
function repositionAll(ctx: CollabContext): void {
  for (const { thread, pin } of ctx.threads.values()) {
    const target = elementAt(ctx.doc, thread.elementXPath);
    pin.hidden = !target;
    if (target) placePin(ctx, pin, target, thread.position);
  }
  ctx.popup?.place();
}

/**
 * Pins follow resizes and page changes (morphs, late images), the latter debounced 1000 ms. The
 * popup is fixed beside a pin that scrolls with the page: it follows scrolling, and everything the
 * pins follow. One mechanism for both, so Floating UI's own `autoUpdate` (0.7 KB gzip) is not needed.
 */
export function followPage(ctx: CollabContext): void {
  const { win, doc, host, signal } = ctx;
  const all = () => repositionAll(ctx);
  win.addEventListener('resize', all, { signal });
  // Capture: scrolling inside any scroll container moves the pin too.
  win.addEventListener('scroll', () => ctx.popup?.place(), { capture: true, passive: true, signal });
  const moved = debounce(all, THREAD_MUTATION_DEBOUNCE_MS);
  const options = { childList: true, subtree: true, attributes: true, characterData: true };
  observe(win, signal, doc.body, options, (records) => {
    if (!records.every((r) => host.contains(r.target))) moved();
  });
  onAbort(signal, () => moved.cancel());
}

/** In feedback mode a click on the page starts a new thread at that point; with a popup open it closes it. */
export function takeFeedbackClicks(ctx: CollabContext): void {
  const { win, collab, host } = ctx;
  const onClick = (event: MouseEvent) => {
    if (!collab.enable || collab.pauseFeedback) return;
    const target = event.target;
    if (event.composedPath().includes(host) || !(target instanceof win.Element)) return;
    if (target.closest('[data-studio-ui="true"]')) return;
    event.preventDefault();
    event.stopPropagation();
    if (ctx.popup) {
      closePopup(ctx);
      return;
    }
    if (!collab.isFeedbackMode) return;
    const rect = target.getBoundingClientRect();
    const x = rect.width ? (event.clientX - rect.left) / rect.width : 0;
    const y = rect.height ? (event.clientY - rect.top) / rect.height : 0;
    const thread: Thread = {
      _id: 'new',
      elementXPath: xpathOf(target),
      position: { x: Math.min(1, Math.max(0, x)), y: Math.min(1, Math.max(0, y)) },
      author: me(ctx).email,
      createdBy: me(ctx).uid,
      pageRoute: pageRoute(win.location.pathname),
      inviteUid: collab.inviteMetadata.inviteUid,
    };
    removeThread(ctx, 'new');
    openPopup(ctx, thread, addPin(ctx, thread, target));
  };
  win.addEventListener('click', onClick, { capture: true, signal: ctx.signal });
}
