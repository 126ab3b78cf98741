import { Window } from 'happy-dom';
import t, { type Test } from 'tap';
import '../test-globals.ts';
import { float } from './float.ts';

/**
 * The one placement door: a surface that cannot be measured yet (not laid out: 0 × 0) is placed
 * with the size the caller gives as its default, so it still flips and stays inside the viewport.
 */

/** Floating UI names the DOM classes as globals, as in a browser: this window's, for the test. */
function asGlobals(t: Test, win: Window) {
  const globals = globalThis as Record<string, unknown>;
  const names = ['window', 'Node', 'Element', 'HTMLElement', 'ShadowRoot', 'getComputedStyle'] as const;
  const before = names.map((name) => globals[name]);
  for (const name of names) globals[name] = name === 'window' ? win : win[name];
  t.teardown(() => {
    names.forEach((name, i) => {
      globals[name] = before[i];
    });
  });
}

function page(t: Test) {
  const win = new Window({ width: 1024, height: 768 });
  asGlobals(t, win);
  const doc = win.document;
  const pin = doc.createElement('button');
  const popup = doc.createElement('div');
  popup.style.position = 'fixed';
  doc.body.append(pin, popup);
  // happy-dom lays nothing out: the viewport and the pin get boxes, the popup keeps 0 × 0.
  Object.defineProperty(doc.documentElement, 'clientWidth', { value: 1024 });
  Object.defineProperty(doc.documentElement, 'clientHeight', { value: 768 });
  const box = { x: 900, y: 300, left: 900, top: 300, right: 932, bottom: 332, width: 32, height: 32 };
  const reference = pin as unknown as Element;
  reference.getBoundingClientRect = () => ({ ...box, toJSON: () => box }) as DOMRect;
  t.teardown(() => win.happyDOM.close());
  return { pin: reference, popup: popup as unknown as HTMLElement };
}

t.test('an unmeasured surface is placed with its default size: it flips to the left of the pin', async (t) => {
  const { pin, popup } = page(t);
  const side = await float(pin, popup, 'right-start', {
    gap: 8,
    margin: 16,
    fallbacks: ['left-start'],
    size: { width: 334, height: 198 },
  });
  t.equal(side, 'left-start', '940 + 334 leaves a 1024 px viewport');
  t.equal(popup.style.left, `${900 - 8 - 334}px`);
  t.equal(popup.style.top, '300px');
});

t.test('without a default size the 0 × 0 surface stays on the right', async (t) => {
  const { pin, popup } = page(t);
  t.equal(await float(pin, popup, 'right-start', { gap: 8, margin: 16, fallbacks: ['left-start'] }), 'right-start');
  t.equal(popup.style.left, '940px');
});
