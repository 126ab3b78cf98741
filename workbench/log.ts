import { h } from './h.ts';

/**
 * The message log under the page: every advanced-post-message message both ways, newest last,
 * at most 500 rows; it follows the end unless the reader has scrolled up.
 */

const MAX_ROWS = 500;
const EVENT_MANAGER = 'contentstack-adv-post-message';

interface LoggedMessage {
  eventManager?: string;
  channel?: string;
  type?: string;
  metadata?: { nature?: string };
  payload?: unknown;
  error?: unknown;
}

export interface MessageLog {
  element: HTMLElement;
  add(direction: 'in' | 'out', message: unknown): void;
  /** A stand-in for the frame's window that logs what the editor posts to it. */
  loggingTarget(frame: HTMLIFrameElement): Window;
}

export function createLog(now: () => Date = () => new Date()): MessageLog {
  const body = h('tbody');
  const clear = h('button', { type: 'button' }, 'Clear');
  clear.addEventListener('click', () => body.replaceChildren());
  const element = h(
    'section',
    { className: 'wb-log', 'aria-label': 'Message log' },
    h('div', { className: 'wb-log-head' }, h('strong', {}, 'Messages'), clear),
    h('table', {}, body),
  );
  const add = (direction: 'in' | 'out', message: unknown) => {
    const m = (message ?? {}) as LoggedMessage;
    if (m.eventManager !== EVENT_MANAGER) return;
    const shown = m.error !== undefined ? { error: m.error } : m.payload;
    body.append(
      h(
        'tr',
        { 'data-direction': direction, 'data-type': m.type ?? '', 'data-channel': m.channel ?? '' },
        h('td', {}, now().toISOString().slice(11, 23)),
        h('td', {}, direction === 'in' ? '← page' : '→ page'),
        h('td', {}, m.channel ?? ''),
        h('td', {}, m.metadata?.nature ?? ''),
        h('td', {}, m.type ?? ''),
        h('td', {}, shown === undefined ? '' : JSON.stringify(shown)),
      ),
    );
    while (body.childElementCount > MAX_ROWS) body.firstElementChild?.remove();
    if (element.scrollTop + element.clientHeight >= element.scrollHeight - 40) element.scrollTop = element.scrollHeight;
  };
  return {
    element,
    add,
    loggingTarget: (frame) =>
      ({
        postMessage(message: unknown, targetOrigin: string) {
          add('out', message);
          frame.contentWindow?.postMessage(message, targetOrigin);
        },
        get closed() {
          return false;
        },
      }) as unknown as Window,
  };
}
