/**
 * Runs a callback once the page's largest contentful paint is on screen and final (decisions 0182,
 * 0206). The window's `load` alone is too early: the hero image is in, but it is decoded and painted
 * frames later, and Lighthouse counts every request and task that started before the largest paint
 * against it. The first largest-paint entry is not enough either: a larger element painted after it
 * (an image decoded a frame later) becomes the final one. So it waits for load, the fonts, the
 * images in view decoded, and two frames, then for the entries; the visitor's first input or scroll
 * starts it at once, since the browser stops looking for a larger paint then.
 *
 * Self-contained on purpose: its source text is the page's inline boot script (islands/boot-script.ts,
 * decision 0199), so it may use nothing from outside its own body.
 */
export function afterLargestPaint(run: () => void): void {
  /** A page whose frames do not come (hidden tab) waits at most this long for one. */
  const FRAME_TIMEOUT_MS = 500;
  /** Chromium reports the largest paint once it is presented; browsers that do not report it wait this long. */
  const ENTRY_TIMEOUT_MS = 1000;
  /** An image in view that never decodes (broken, or a format the browser refuses) holds nothing up longer. */
  const DECODE_TIMEOUT_MS = 1000;
  const inputs = ['pointerdown', 'keydown', 'wheel', 'scroll'] as const;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const type of inputs) document.removeEventListener(type, start, true);
    run();
  };
  for (const type of inputs) document.addEventListener(type, start, { capture: true, passive: true });
  const afterLoad = (next: () => void) =>
    document.readyState === 'complete' ? next() : window.addEventListener('load', next, { once: true });
  // Decoding is asynchronous: an image load brought in may be painted frames after it.
  const afterImagesInView = (next: () => void) => {
    const inView = Array.from(document.images).filter((img) => {
      const box = img.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && box.bottom > 0 && window.innerHeight > box.top;
    });
    const decoded = Promise.all(inView.map((img) => img.decode().catch(() => {})));
    const fonts = document.fonts ? document.fonts.ready : Promise.resolve();
    const timeout = new Promise((resolve) => setTimeout(resolve, DECODE_TIMEOUT_MS));
    Promise.race([Promise.all([decoded, fonts]), timeout]).then(next);
  };
  // The second frame after the decode: the first paints the images, and their entries, reported
  // once that frame is presented, are in before the next one. A hidden tab has no frames.
  const afterTwoFrames = (next: () => void) => {
    let done = false;
    const once = () => {
      if (done) return;
      done = true;
      next();
    };
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(once, 0)));
    setTimeout(once, FRAME_TIMEOUT_MS);
  };
  // Waits for the largest-contentful-paint entries where the browser reports them (Chromium; not Safari).
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
  afterLoad(() => afterImagesInView(() => afterTwoFrames(() => afterLargestPaintEntry(start))));
}
