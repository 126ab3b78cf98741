import { afterLargestPaint } from './after-paint.ts';

/**
 * The page's inline boot script (decision 0199): a classic script at the end of the body that waits
 * for the largest paint and only then imports the island runtime, whose URL it reads from its own
 * `data-src`. No script is fetched while the page loads, so none is in Lighthouse's LCP graph. The
 * text never changes within a build, so the Content-Security-Policy allows it by its hash
 * (`BOOT_SCRIPT_HASH`) and `script-src` needs no 'unsafe-inline'.
 */
export const BOOT_SCRIPT = `(${afterLargestPaint})(((src) => () => import(src))(document.currentScript.dataset.src));`;
