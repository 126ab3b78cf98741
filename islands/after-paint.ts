/**
 * Runs a callback once the page's largest contentful paint is on screen (decision 0182). The
 * window's `load` alone is too early: the hero image is in, but it is painted on the next frame, and
 * Lighthouse counts every request and task that started before the largest paint against it.
 *
 * Self-contained on purpose: its source text is the page's inline boot script (islands/boot-script.ts,
 * decision 0199), so it may use nothing from outside its own body.
 */
export function afterLargestPaint(run: () => void): void {
  /** A page whose frames do not come (hidden tab) waits at most this long for one. */
  const FRAME_TIMEOUT_MS = 500;
  /** Chromium reports the largest paint once it is presented; browsers that do not report it wait this long. */
  const ENTRY_TIMEOUT_MS = 1000;
  const afterLoad = (next: () => void) =>
    document.readyState === 'complete' ? next() : window.addEventListener('load', next, { once: true });
  // The frame after load paints what load brought in; a task queued from that frame runs after it.
  // A hidden tab has no frames: the timeout lets it go on without them.
  const afterNextFrame = (next: () => void) => {
    let done = false;
    const once = () => {
      if (done) return;
      done = true;
      next();
    };
    requestAnimationFrame(() => setTimeout(once, 0));
    setTimeout(once, FRAME_TIMEOUT_MS);
  };
  // Waits for the largest-contentful-paint entry where the browser reports one (Chromium; not Safari).
  const afterLargestPaintEntry = (next: () => void) => {
    if (!PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint')) {
      next();
      return;
    }
    let done = false;
    const once = () => {
      if (done) return;
      done = true;
      observer.disconnect();
      next();
    };
    const observer = new PerformanceObserver(once);
    observer.observe({ type: 'largest-contentful-paint', buffered: true });
    setTimeout(once, ENTRY_TIMEOUT_MS);
  };
  afterLoad(() => afterNextFrame(() => afterLargestPaintEntry(run)));
}
