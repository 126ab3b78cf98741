/**
 * Teardown by one `AbortSignal`: a feature registers its listeners (`{ signal }`), observers and
 * timers against the signal it was started with, and aborting it undoes all of them at once.
 */

/** Runs `stop` when `signal` aborts (at once if it already has). */
export function onAbort(signal: AbortSignal, stop: () => void): void {
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });
}

/** `setTimeout` that the signal cancels; returns the cancel. */
export function later(signal: AbortSignal, run: () => void, ms: number): () => void {
  const cancel = () => {
    clearTimeout(timer);
    signal.removeEventListener('abort', cancel);
  };
  const timer = setTimeout(() => {
    signal.removeEventListener('abort', cancel);
    run();
  }, ms);
  onAbort(signal, cancel);
  return cancel;
}

/** A MutationObserver on `target` that the signal disconnects. */
export function observe(
  win: Window & typeof globalThis,
  signal: AbortSignal,
  target: Node,
  options: MutationObserverInit,
  callback: MutationCallback,
): MutationObserver {
  const observer = new win.MutationObserver(callback);
  observer.observe(target, options);
  onAbort(signal, () => observer.disconnect());
  return observer;
}
