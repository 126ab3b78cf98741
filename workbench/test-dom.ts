import { Window } from 'happy-dom';
import type { Test } from 'tap';

/**
 * A happy-dom window installed as the test's `document` and `CSS` (the workbench's modules build
 * on the global document, as in the browser), removed when the test ends.
 */
export function installDom(t: Test, url = 'https://www.halden.co.uk/__workbench'): Window {
  const win = new Window({ url });
  const globals = globalThis as unknown as Record<string, unknown>;
  const saved = { document: globals.document, CSS: globals.CSS };
  globals.document = win.document;
  globals.CSS = win.CSS;
  t.teardown(async () => {
    globals.document = saved.document;
    globals.CSS = saved.CSS;
    await win.happyDOM.close();
  });
  return win;
}

/** A promise and its resolver: tests wait for the call they expect instead of for time. */
export function deferred<T = void>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
