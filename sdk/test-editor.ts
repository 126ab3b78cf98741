import { createRequire } from 'node:module';
import { Window } from 'happy-dom';
import type { PageWindow } from './dom.ts';
import './test-globals.ts';

/**
 * Test support (never bundled): a site window framed by an editor window, both happy-dom, wired so
 * that `postMessage` behaves as in a browser — delivered asynchronously, structured-cloned, with
 * `origin` and `source` set, and dropped when the target origin does not match. The editor side is
 * the real `@contentstack/advanced-post-message`, as in the Contentstack app.
 */

type AdvPostMessage = typeof import('@contentstack/advanced-post-message');
export type EventManager = InstanceType<AdvPostMessage['EventManager']>;

const { EventManager } = createRequire(import.meta.url)('@contentstack/advanced-post-message') as AdvPostMessage;

export const EDITOR_ORIGIN = 'https://app.contentstack.com';
export const SITE_ORIGIN = 'https://www.halden.co.uk';

export interface Posted {
  message: Record<string, unknown>;
  targetOrigin: string;
}

/** A window as another frame sees it: postMessage and closed, nothing else. */
interface WindowProxyLike {
  postMessage(message: unknown, targetOrigin: string): void;
  closed: boolean;
}

function proxy(target: Window, senderOrigin: string, sender: () => unknown, log: Posted[]): WindowProxyLike {
  const ownOrigin = new URL(target.location.href).origin;
  return {
    closed: false,
    postMessage(message, targetOrigin) {
      log.push({ message: structuredClone(message) as Record<string, unknown>, targetOrigin });
      if (targetOrigin !== '*' && targetOrigin !== ownOrigin) return;
      const data = structuredClone(message);
      setTimeout(() => {
        target.dispatchEvent(
          new target.MessageEvent('message', { data, origin: senderOrigin, source: sender() as never }),
        );
      }, 0);
    },
  };
}

export interface FramedSite {
  /** The site frame, typed as the layer sees a window. */
  site: PageWindow;
  editorWindow: Window;
  /** Everything the site posted to the editor, with the target origin it used. */
  toEditor: Posted[];
  /** Everything the editor posted to the site. */
  toSite: Posted[];
  /** The editor window as the site sees it (its `parent`). */
  parent: WindowProxyLike;
  /** A real EventManager on the editor side, talking to the site frame. */
  editor(channel: string): EventManager;
  /** Posts `data` into the site as if from another window and origin. */
  inject(data: unknown, from: { origin: string; source?: unknown }): void;
  close(): Promise<void>;
}

export function framedSite(options: { url?: string; editorOrigin?: string } = {}): FramedSite {
  const editorOrigin = options.editorOrigin ?? EDITOR_ORIGIN;
  const happySite = new Window({ url: options.url ?? `${SITE_ORIGIN}/cs/kitchen/aquasense-60-dishwasher-4711` });
  const site = happySite as unknown as PageWindow;
  const editorWindow = new Window({ url: `${editorOrigin}/#!/stack/blt1/live-preview` });
  const toEditor: Posted[] = [];
  const toSite: Posted[] = [];
  const siteOrigin = new URL(site.location.href).origin;
  let siteProxy: WindowProxyLike;
  const parent = proxy(editorWindow, siteOrigin, () => siteProxy, toEditor);
  siteProxy = proxy(happySite, editorOrigin, () => parent, toSite);
  Object.defineProperty(site, 'parent', { value: parent, configurable: true });
  const managers: EventManager[] = [];

  return {
    site,
    editorWindow,
    toEditor,
    toSite,
    parent,
    editor(channel) {
      // The library listens on the global `window` at construction: the editor's, for this call.
      const globals = globalThis as { window?: unknown };
      const previous = globals.window;
      globals.window = editorWindow;
      try {
        const manager = new EventManager(channel, {
          target: siteProxy as never,
          targetOrigin: siteOrigin,
          suppressErrors: true,
        });
        managers.push(manager);
        return manager;
      } finally {
        globals.window = previous;
      }
    },
    inject(data, from) {
      happySite.dispatchEvent(
        new happySite.MessageEvent('message', {
          data: structuredClone(data),
          origin: from.origin,
          source: (from.source ?? parent) as never,
        }),
      );
    },
    async close() {
      for (const manager of managers) manager.destroy({ soft: true });
      await happySite.happyDOM.close();
      await editorWindow.happyDOM.close();
    },
  };
}

/** Resolves after pending message deliveries (each is one macrotask). */
export const settle = (ms = 20) => new Promise((resolve) => setTimeout(resolve, ms));
