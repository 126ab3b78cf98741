import type { EventManager } from '@contentstack/advanced-post-message';

/**
 * advanced-post-message hears every message of its channel on the window, whoever sent it, and
 * answers its own target. With the framed page and a preview opened in a new tab, both managers of
 * the live-preview channel would answer each request, one of them to the wrong window. This moves
 * a manager's listener behind a check of the sending window: it hears only `source()`.
 */
export function hearOnly(win: Window, manager: EventManager, source: () => MessageEventSource | null): void {
  // The library's own bound listener (private in its types): the one it added in its constructor.
  const handle = (manager as unknown as { handleIncomingMessage(event: MessageEvent): void }).handleIncomingMessage;
  win.removeEventListener('message', handle);
  win.addEventListener('message', (event) => {
    if (event.source !== null && event.source === source()) handle(event);
  });
}
