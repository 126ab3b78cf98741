import type { PageWindow } from '../dom.ts';
/**
 * The editor at the other end: the parent window, and the origins it may have (the allowlist of
 * the configuration). The editor's SDK 3.2.5 listens to any window and posts to `*`; here a message
 * counts only when it comes from the editor window and an allowlisted origin, and nothing is ever
 * posted to `*`. Until the editor's origin is known, a message is posted once per allowlisted
 * origin: the browser delivers it only where the target origin matches the editor's.
 *
 * Live Preview in a new tab (4.x): a page that is not framed has no parent to talk to, and with
 * `opener` the editor is the window that opened it; the live-preview channel asks for this. The
 * allowlist holds the same: an opener of another origin is never heard and never reached.
 */
export interface Peer {
  /** Whether `event` comes from the editor window and an allowed origin; the first one fixes the origin. */
  accepts(event: MessageEvent): boolean;
  /** Posts to the editor; false when there is none (not framed, or framed by a foreign origin). */
  post(message: unknown): boolean;
  /** The editor window has gone away. */
  closed(): boolean;
}

/** The editor window: the parent when framed; the opener when `opener` is set and the page is not framed. */
function editorWindow(self: PageWindow, opener: boolean): Window | null {
  const parent = self.parent;
  if (parent !== null && parent !== self) return parent;
  return opener ? self.opener : null;
}

export function createPeer(self: PageWindow, allowed: readonly string[], { opener = false } = {}): Peer {
  const editor = editorWindow(self, opener);
  // Chromium and WebKit name a parent's origin up front; an opener's, or elsewhere, is learnt from the first message.
  const ancestor = editor === self.parent ? self.location.ancestorOrigins?.[0] : undefined;
  let known = ancestor !== undefined && allowed.includes(ancestor) ? ancestor : undefined;
  const foreign = ancestor !== undefined && known === undefined;
  const reachable = editor !== null && !foreign;

  return {
    accepts(event) {
      if (!reachable || event.source !== editor || !allowed.includes(event.origin)) return false;
      if (known !== undefined && event.origin !== known) return false;
      known = event.origin;
      return true;
    },
    post(message) {
      if (!reachable) return false;
      for (const origin of known === undefined ? allowed : [known]) editor.postMessage(message, origin);
      return true;
    },
    closed: () => reachable && editor.closed,
  };
}
