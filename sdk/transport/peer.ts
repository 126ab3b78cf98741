import type { PageWindow } from '../dom.ts';
/**
 * The editor at the other end: the parent window, and the origins it may have (the allowlist of
 * the configuration). The editor's SDK 3.2.5 listens to any window and posts to `*`; here a message
 * counts only when it comes from the parent window and an allowlisted origin, and nothing is ever
 * posted to `*`. Until the editor's origin is known, a message is posted once per allowlisted
 * origin: the browser delivers it only where the target origin matches the parent's.
 */
export interface Peer {
  /** Whether `event` comes from the editor window and an allowed origin; the first one fixes the origin. */
  accepts(event: MessageEvent): boolean;
  /** Posts to the editor; false when there is none (not framed, or framed by a foreign origin). */
  post(message: unknown): boolean;
  /** The editor window has gone away. */
  closed(): boolean;
}

export function createPeer(self: PageWindow, allowed: readonly string[]): Peer {
  const parent = self.parent;
  const framed = parent !== null && parent !== self;
  // Chromium and WebKit name the parent's origin up front; elsewhere it is learnt from the first message.
  const ancestor = self.location.ancestorOrigins?.[0];
  let known = ancestor !== undefined && allowed.includes(ancestor) ? ancestor : undefined;
  const foreign = ancestor !== undefined && known === undefined;
  const reachable = framed && !foreign;

  return {
    accepts(event) {
      if (!reachable || event.source !== parent || !allowed.includes(event.origin)) return false;
      if (known !== undefined && event.origin !== known) return false;
      known = event.origin;
      return true;
    },
    post(message) {
      if (!reachable) return false;
      for (const origin of known === undefined ? allowed : [known]) parent.postMessage(message, origin);
      return true;
    },
    closed: () => reachable && parent.closed,
  };
}
