import type { Test } from 'tap';
import { baseConfig } from '../config/defaults.ts';
import type { PageWindow } from '../dom.ts';
import type { WindowType } from '../protocol.ts';
import { EDITOR_ORIGIN, type EventManager, type FakeTime, fakeTime, framedSite } from '../test-editor.ts';
import { createChannel } from '../transport/channel.ts';
import { createPeer } from '../transport/peer.ts';
import { startBuilder } from './builder.ts';

/**
 * Test support (never bundled): a builder started in a happy-dom page framed by the real editor
 * library, which records what the layer asks and answers it.
 */
export const PAGE = 'https://www.halden.co.uk/cs/kitchen/aquasense-60-dishwasher-4711?live_preview=h1&builder=true';
export const TITLE = 'page.page-4711.en-GB.title';
export const PRICE = 'page.page-4711.en-GB.price';

export const SCHEMA = {
  title: { data_type: 'text', uid: 'title', display_name: 'Title' },
  price: { data_type: 'number', uid: 'price', display_name: 'Price' },
};

/** The editor's side for a test: its requests settle on the test's clock. */
function requests(manager: EventManager, time: FakeTime) {
  return { send: (type: string, payload?: unknown) => time.settled(manager.send(type, payload)) };
}

/**
 * A builder over a page of the test's own, with no answers from the editor: the test gives the
 * `editor` the answers it needs (before any message arrives: deliveries are tasks of their own).
 */
export function bare(t: Test, body: string) {
  const framed = framedSite({ url: PAGE });
  const time = fakeTime(t, framed);
  const win = framed.site;
  win.document.body.innerHTML = body;
  const editor = framed.editor('visual-builder');
  const channel = createChannel('visual-builder', win, createPeer(win, [EDITOR_ORIGIN]));
  const config = baseConfig();
  const builder = startBuilder({ win, config, channel });
  t.teardown(async () => {
    builder.destroy();
    channel.destroy();
    await framed.close();
  });
  return { ...time, win, config, editor, send: requests(editor, time).send };
}

export function start(
  t: Test,
  options: {
    schema?: unknown;
    update?: boolean;
    answers?: Record<string, (data: unknown) => unknown>;
    /** The window type the editor's builder init gave (4.x asks some questions only in a builder window). */
    windowType?: WindowType;
  } = {},
) {
  const framed = framedSite({ url: PAGE });
  const time = fakeTime(t, framed);
  const win = framed.site;
  win.document.body.innerHTML = `<main><h1 data-cslp="${TITLE}">AquaSense</h1><data data-cslp="${PRICE}">779</data><p>plain</p></main>`;
  const editor = framed.editor('visual-builder');
  const received: { type: string; data: unknown }[] = [];
  const record = (type: string, answer?: (data: unknown) => unknown) =>
    editor.on(type, (event) => {
      received.push({ type, data: event.data });
      return answer?.(event.data);
    });
  record('get-field-schema', () => ({ fieldSchemaMap: options.schema ?? SCHEMA }));
  record('get-permissions', () => ({
    create: true,
    read: true,
    update: options.update ?? true,
    delete: true,
    publish: true,
  }));
  record('get-field-display-names', () => ({ [TITLE]: 'Title' }));
  for (const type of [
    'mouse-click',
    'focus-field',
    'sync-field',
    'update-field',
    'get-field-data',
    'get-field-variant-status',
    'open-field-comment-modal',
    ...Object.keys(options.answers ?? {}),
  ])
    record(type, options.answers?.[type]);
  const config = baseConfig();
  config.stackDetails.masterLocale = 'en-GB';
  if (options.windowType) config.windowType = options.windowType;
  const peer = createPeer(win, [EDITOR_ORIGIN]);
  const channel = createChannel('visual-builder', win, peer);
  const livePreview = createChannel('live-preview', win, peer);
  // The core's entry changes (client-data-send), as the test makes them.
  const entryListeners = new Set<() => void>();
  const entryChanged = (listener: () => void) => {
    entryListeners.add(listener);
    return () => {
      entryListeners.delete(listener);
    };
  };
  const builder = startBuilder({ win, config, channel, livePreview, entryChanged });
  t.teardown(async () => {
    builder.destroy();
    channel.destroy();
    livePreview.destroy();
    await framed.close();
  });
  const shadow = win.document.querySelector('.visual-builder__container')?.shadowRoot as ShadowRoot;
  const types = () => received.map((r) => r.type);
  return {
    win,
    config,
    ...time,
    editor: requests(editor, time),
    livePreviewEditor: requests(framed.editor('live-preview'), time),
    received,
    types,
    changeEntry: () => {
      for (const listener of entryListeners) listener();
    },
    shadow,
    el: (tag: string) => win.document.querySelector(`[data-cslp="${tag}"]`) as HTMLElement,
  };
}

export const PRICE_SHOWN = '<data data-cslp="page.page-4711.en-GB.price">£779</data>';
export const pressEscape = (win: PageWindow) =>
  win.document.dispatchEvent(new win.KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));

/** happy-dom has no layout: the field reports the box a browser would; `grow` is what wrapping does. */
export function layoutBox(element: HTMLElement): { grow(height: number): void } {
  let height = 40;
  element.getBoundingClientRect = () =>
    ({ top: 100, left: 10, right: 310, bottom: 100 + height, width: 300, height, x: 10, y: 100 }) as DOMRect;
  return {
    grow(next) {
      height = next;
    },
  };
}
