import type { Config } from '../config/types.ts';
import type { PageWindow } from '../dom.ts';
import { el } from '../el.ts';
import { THREAD_RETRY_MS } from '../timing.ts';
import type { Channel } from '../transport/channel.ts';
import { layerHost } from '../view/host.ts';
import { type CollabContext, isThread } from './context.ts';
import { editorHandlers } from './messages.ts';
import { applyPause, followPage, renderThreads, takeFeedbackClicks } from './pins.ts';
import { COLLAB_CSS } from './styles.ts';

/**
 * Collaboration: comment threads pinned to page elements, in a lazy chunk the core loads only once
 * collaboration is enabled. Pins and the thread popup live in an open shadow root; every thread
 * and comment change is a `collab-*` request on the visual-builder channel.
 * Its features, each a module over the one shared context:
 * - pins.ts: pins, their placement, feedback clicks that start threads;
 * - thread-popup.ts: the popup with the comment list, resolve and delete;
 * - composer.ts: the textarea with mentions, limits and posting;
 * - messages.ts: what the editor tells collaboration.
 * `destroy` aborts the context's signal, which undoes every listener, observer, timer and node.
 */

export type { Comment, Thread } from './context.ts';

export interface CollabOptions {
  win: PageWindow;
  config: Config;
  channel: Channel;
  /** Time between the 5 retries of a missing pin (1000 ms); shorter in unit tests. */
  retryMs?: number;
}

export interface Collab {
  /** Runs an editor message the core received before the chunk was loaded. */
  handle(type: string, data: unknown): unknown;
  destroy(): void;
}

/** The container at the page's origin, so pins placed in page coordinates land where they belong. */
function createHost(win: PageWindow): { host: HTMLElement; root: ShadowRoot } {
  const made = layerHost(win, 'collab__container', COLLAB_CSS);
  Object.assign(made.host.style, { position: 'absolute', top: '0', left: '0', width: '0', height: '0' });
  return made;
}

export function startCollab({ win, config, channel, retryMs = THREAD_RETRY_MS }: CollabOptions): Collab {
  const doc = win.document;
  const teardown = new AbortController();
  const { host, root } = createHost(win);
  const ctx: CollabContext = {
    win,
    doc,
    collab: config.collab,
    channel,
    signal: teardown.signal,
    host,
    root,
    pins: el(doc, 'div', 'collab-pins', root),
    parser: new win.DOMParser(),
    threads: new Map(),
    popup: null,
    retryMs,
  };
  doc.body.appendChild(host);
  followPage(ctx);
  takeFeedbackClicks(ctx);
  const handlers = editorHandlers(ctx);
  for (const [type, handler] of Object.entries(handlers)) channel.on(type, handler);
  applyPause(ctx);
  renderThreads(ctx, config.collab.payload.filter(isThread));

  return {
    handle: (type, data) => handlers[type]?.(data),
    destroy() {
      ctx.popup = null;
      teardown.abort();
      host.remove();
    },
  };
}
