import { createRequire } from 'node:module';
import { mock } from 'node:test';
import { Window } from 'happy-dom';
import type { Test } from 'tap';
import type { PageWindow } from './dom.ts';
import './test-globals.ts';

/**
 * Test support (never bundled): a site window framed by an editor window, both happy-dom, wired so
 * that `postMessage` behaves as in a browser — delivered asynchronously, structured-cloned, with
 * `origin` and `source` set, and dropped when the target origin does not match. The editor side is
 * the real `@contentstack/advanced-post-message`, as in the Contentstack app.
 *
 * Tests do not wait on the wall clock: `fakeTime` puts the layer's and the library's timers on a
 * clock the test moves, while messages are delivered as their own tasks (`setImmediate`), so
 * `delivered()` can tell when every message in flight, and every message it caused, has arrived.
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

/** Messages posted and not yet dispatched, across both windows of a framed site. */
interface InFlight {
  count: number;
}

function proxy(
  target: Window,
  senderOrigin: string,
  sender: () => unknown,
  log: Posted[],
  inFlight: InFlight,
): WindowProxyLike {
  const ownOrigin = new URL(target.location.href).origin;
  return {
    closed: false,
    postMessage(message, targetOrigin) {
      log.push({ message: structuredClone(message) as Record<string, unknown>, targetOrigin });
      if (targetOrigin !== '*' && targetOrigin !== ownOrigin) return;
      const data = structuredClone(message);
      inFlight.count++;
      // A task of its own, as in a browser; not a timer, so a faked clock does not hold it up.
      setImmediate(() => {
        inFlight.count--;
        target.dispatchEvent(
          new target.MessageEvent('message', { data, origin: senderOrigin, source: sender() as never }),
        );
      });
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
  /**
   * Resolves once no message is in flight: every message posted so far, and every message its
   * handlers posted in turn, has been dispatched and handled (handlers' promise jobs included).
   */
  delivered(): Promise<void>;
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
  const inFlight: InFlight = { count: 0 };
  let siteProxy: WindowProxyLike;
  const parent = proxy(editorWindow, siteOrigin, () => siteProxy, toEditor, inFlight);
  siteProxy = proxy(happySite, editorOrigin, () => parent, toSite, inFlight);
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
    async delivered() {
      // Each turn lets every dispatch scheduled so far run, with the promise jobs it starts.
      do await new Promise((resolve) => setImmediate(resolve));
      while (inFlight.count > 0);
    },
    async close() {
      for (const manager of managers) manager.destroy({ soft: true });
      await happySite.happyDOM.close();
      await editorWindow.happyDOM.close();
    },
  };
}

/** Time as a test moves it. */
export interface FakeTime {
  /** Moves the clock `ms` forward in small steps, delivering the messages each step causes. */
  advance(ms: number): Promise<void>;
  /**
   * Awaits a promise that needs the library's zero-delay timers (an editor request and its answer):
   * delivers and runs them, without moving the clock, until it settles.
   */
  settled<T>(pending: Promise<T>): Promise<T>;
}

/** Whether the clock is faked, by the current test. */
let faked = false;

/** Steps of `advance`: a debounce or throttle fires within 5 ms of its time, as on a real clock. */
const STEP_MS = 5;
/** Turns `settled` allows before it calls a promise stuck: far more than any exchange takes. */
const MAX_TURNS = 1_000;

/** The layer's and the library's `setTimeout` and `setInterval` on a clock the test moves, for this test. */
export function fakeTime(t: Test, framed: Pick<FramedSite, 'delivered'>): FakeTime {
  // A test that frames two sites moves one clock for both.
  if (!faked) {
    mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
    faked = true;
    t.teardown(() => {
      mock.timers.reset();
      faked = false;
    });
  }
  const turn = async (ms: number) => {
    mock.timers.tick(ms);
    await framed.delivered();
  };
  return {
    async advance(ms) {
      await framed.delivered();
      for (let left = ms; left > 0; left -= STEP_MS) await turn(Math.min(STEP_MS, left));
    },
    async settled(pending) {
      let done = false;
      const watched = pending.finally(() => {
        done = true;
      });
      watched.catch(() => undefined);
      for (let turns = 0; !done; turns++) {
        if (turns === MAX_TURNS) throw new Error(`Still pending after ${MAX_TURNS} turns of the fake clock`);
        await turn(0);
      }
      return watched;
    },
  };
}
