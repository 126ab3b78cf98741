import { onAbort } from '../abort.ts';
import type * as BuilderChunk from '../builder/builder.ts';
import type * as CollabChunk from '../collab/collab.ts';
import { editorOrigins, setEntry, setHash } from '../config/config.ts';
import type { Config } from '../config/types.ts';
import { BUTTON_POSITION, CSLP, isFramed, isOpenedInTab, type PageWindow } from '../dom.ts';
import { createEditButton, type EditButton } from '../edit-button/edit-button.ts';
import { isTimeline } from '../edit-button/visibility.ts';
import { logger } from '../logger.ts';
import {
  type BuilderCoreSent,
  type BuilderInitRequest,
  CHANNELS,
  type InitRequest,
  MODE,
  type NoMessages,
  type Received,
  readBuilderInitReply,
  readClientDataSend,
  readHistory,
  readInitReply,
  SDK_VERSION,
  type Sent,
  type TimelineReceived,
  type WindowType,
} from '../protocol.ts';
import { handleTimeline, type Sanitize } from '../timeline/timeline.ts';
import { ENTRY_PAGE_CHECK_MS } from '../timing.ts';
import { type Channel, createChannel } from '../transport/channel.ts';
import { createPeer } from '../transport/peer.ts';
import { followEditor } from './follow-editor.ts';
import { decorateLinkClicks } from './links.ts';
import type { Subscribers } from './subscribers.ts';

/**
 * The running layer: the handshakes with the editor, the live-preview handlers,
 * the entry-page check, the edit button and the timeline. Failures of the handshake are swallowed:
 * a page outside the editor simply stays a page. One `AbortSignal` is the teardown: everything the
 * layer starts registers its undoing on it, and every start path checks it after each wait, so a
 * `destroy()` during a handshake or a chunk load leaves nothing behind.
 */

/** Code the core loads only when it is needed, so the preview core stays within its budget. */
export interface Loaders {
  sanitizer(): Promise<Sanitize>;
  /** The visual builder chunk, loaded only in a builder window of a `builder` URL. */
  builder?(): Promise<typeof BuilderChunk>;
  /** Collaboration, loaded only once the editor enables it. */
  collab?(): Promise<typeof CollabChunk>;
}

export interface Layer {
  /** Stops listening and sending; the edit button goes away. */
  destroy(): void;
}

const ignore = (error: unknown) => logger.debug(error);

export function startLayer(win: PageWindow, config: Config, subscribers: Subscribers, loaders: Loaders): Layer {
  logger.setDebug(config.debug);
  logger.debug('configuration', config);
  const doc = win.document;
  const origins = editorOrigins(config);
  const peer = createPeer(win, origins);
  // 4.x: Live Preview opened in a new tab talks to the editor that opened it, on this channel only.
  const livePreview = createChannel<Sent, Received>(
    CHANNELS.livePreview,
    win,
    createPeer(win, origins, { opener: true }),
  );
  // One channel for the core's handshake, the builder and collaboration: each narrows it to its messages.
  const visualBuilder: Channel<BuilderCoreSent> = createChannel(CHANNELS.visualBuilder, win, peer);
  const timeline = createChannel<NoMessages, TimelineReceived>(CHANNELS.timeline, win, peer);
  const teardown = new AbortController();
  const { signal } = teardown;
  // Registered after the abort, a cleanup runs at once.
  const cleanup = (stop: () => void) => onAbort(signal, stop);
  for (const channel of [livePreview, visualBuilder, timeline]) cleanup(channel.destroy);
  let editButton: EditButton | undefined;

  const setWindowType = (type: WindowType) => {
    config.windowType = type;
    editButton?.toggle();
  };

  const handleHistory = () =>
    livePreview.on('history', (data) => {
      const { type } = readHistory(data);
      if (type === 'forward') win.history.forward();
      else if (type === 'backward') win.history.back();
      else win.history.go();
    });

  const handleClientData = () =>
    livePreview.on('client-data-send', (data) => {
      const change = readClientDataSend(data);
      setHash(config, change.hash);
      // With SSR the editor reloads the frame itself; otherwise the site refreshes through its subscribers.
      // 4.x: an `event_type` is the editor moving on, which the page follows instead.
      if (!config.ssr && !change.eventType) config.onChange();
      if (isOpenedInTab(win)) followEditor(win, config, change);
    });

  async function handshake(): Promise<void> {
    config.onChange = () => subscribers.run();
    // 3.2.5 runs the subscribers once before its init.
    config.onChange();
    const request: InitRequest = {
      config: { shouldReload: config.ssr, href: win.location.href, sdkVersion: SDK_VERSION, mode: config.mode },
    };
    if (config.enableLivePreviewOutsideIframe !== undefined)
      request.config.enableLivePreviewOutsideIframe = config.enableLivePreviewOutsideIframe;
    const reply = readInitReply(await livePreview.send('init', request));
    // A builder reply that came first has decided the window already.
    if (signal.aborted || config.windowType === 'builder') return;
    if (reply.contentTypeUid && reply.entryUid) setEntry(config, reply.contentTypeUid, reply.entryUid);
    cleanup(decorateLinkClicks(win, () => config.hash));
    setWindowType(reply.windowType ?? 'preview');
    if (!config.ssr) {
      const timer = setInterval(() => {
        livePreview.send('check-entry-page', { href: win.location.href }).catch(ignore);
      }, ENTRY_PAGE_CHECK_MS);
      cleanup(() => clearInterval(timer));
    }
    handleHistory();
    handleClientData();
  }

  async function builderHandshake(): Promise<void> {
    const request: BuilderInitRequest = { isSSR: config.ssr, href: win.location.href };
    const reply = readBuilderInitReply(
      await visualBuilder.send('init', request).catch(async (error: unknown) => {
        // Outside the editor the page offers to open itself in the visual builder.
        if (!isFramed(win) && loaders.builder && !signal.aborted) {
          const { showStartEditing } = await loaders.builder();
          if (!signal.aborted) cleanup(showStartEditing(win, config));
        }
        throw error;
      }),
    );
    if (signal.aborted) return;
    setWindowType(reply.windowType ?? 'builder');
    config.stackDetails.masterLocale = reply.masterLocale ?? 'en-us';
    if (reply.collab) {
      const { enable, isFeedbackMode, inviteMetadata } = reply.collab;
      if (typeof enable === 'boolean') config.collab.enable = enable;
      if (typeof isFeedbackMode === 'boolean') config.collab.isFeedbackMode = isFeedbackMode;
      if (inviteMetadata) config.collab.inviteMetadata = inviteMetadata as Config['collab']['inviteMetadata'];
      if (Array.isArray(reply.collab.payload)) config.collab.payload = reply.collab.payload;
    }
    handleHistory();
    // Collaboration: its chunk loads when enabled now or by a later `collab-enable`.
    // Comment icons come from the same chunk; its own handlers take over from these.
    const collab = loaders.collab;
    if (collab) {
      let chunk: Promise<CollabChunk.Collab> | undefined;
      const placeholders: (() => void)[] = [];
      const start = () => {
        chunk ??= collab().then(({ startCollab }) => {
          if (signal.aborted) throw signal.reason;
          for (const unregister of placeholders.splice(0)) unregister();
          const started = startCollab({ win, config, channel: visualBuilder });
          cleanup(started.destroy);
          return started;
        });
        return chunk;
      };
      if (config.collab.enable) start().catch(ignore);
      else
        for (const type of ['collab-enable', 'highlight-active-comments-by-data-cs'])
          placeholders.push(
            visualBuilder.on(type, (data) => {
              start()
                .then((started) => started.handle(type, data))
                .catch(ignore);
            }),
          );
    }
    if (config.windowType === 'builder') {
      handleClientData();
      visualBuilder.send('send-variant-and-locale').catch(ignore);
    } else if (config.windowType !== 'preview-share') return;
    // The builder UI exists only when the URL asks for it: `builder`, or since 4.0.1 a
    // preview-share link (`preview_share`), where reviewers hover, focus and comment.
    const query = new URL(win.location.href).searchParams;
    if (loaders.builder && (query.get('builder') || query.get('preview_share'))) {
      const { startBuilder } = await loaders.builder();
      const entryChanged = (listener: () => void) => {
        const id = subscribers.add(listener);
        return () => subscribers.remove(id);
      };
      if (!signal.aborted)
        cleanup(startBuilder({ win, config, channel: visualBuilder, livePreview, entryChanged }).destroy);
    }
  }

  if (!config.enable) {
    if (config.cleanCslpOnProduction)
      for (const element of Array.from(doc.querySelectorAll(`[${CSLP}], [${BUTTON_POSITION}]`))) {
        element.removeAttribute(CSLP);
        element.removeAttribute(BUTTON_POSITION);
      }
  } else {
    const start = () => handshake().catch(ignore);
    if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', start, { once: true, signal });
    else void start();
    const url = new URL(win.location.href);
    if (!isTimeline(url) && (config.editButton.enable || config.mode === MODE.builder)) {
      editButton = createEditButton(win, config, livePreview);
      editButton.toggle();
      cleanup(editButton.destroy);
    }
    if (config.mode === MODE.builder) builderHandshake().catch(ignore);
  }

  // Leaving through a focused link tells the editor where the frame goes (3.2.5 uses `unload`,
  // which browsers are retiring; `pagehide` fires in the same cases).
  const onLeave = () => {
    const targetURL = (doc.activeElement as HTMLAnchorElement | null)?.href;
    if (targetURL) livePreview.send('url-change', { targetURL }).catch(ignore);
  };
  win.addEventListener('pagehide', onLeave, { signal });
  handleTimeline(win, timeline, loaders.sanitizer);

  return {
    destroy: () => teardown.abort(),
  };
}
