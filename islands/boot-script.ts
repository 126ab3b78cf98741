import { afterLargestPaint } from './after-paint.ts';

/**
 * tsx (`npm run dev`) compiles with esbuild's keepNames, which wraps every named function in a call
 * to `__name`, a helper of the module; the function's text then needs it in the page too, where it
 * does not exist (islands never loaded under `npm run dev`). The built server's text has no such
 * call and gets nothing added.
 */
const source = String(afterLargestPaint);
const keepNames = source.includes('__name(') ? 'const __name = (f) => f;' : '';

/**
 * The page's inline boot script (decision 0199): a classic script at the end of the body that waits
 * for the largest paint and only then imports the island runtime, whose URL it reads from its own
 * `data-src`. No script is fetched while the page loads, so none is in Lighthouse's LCP graph. The
 * text never changes within a build, so the Content-Security-Policy allows it by its hash
 * (`BOOT_SCRIPT_HASH`) and `script-src` needs no 'unsafe-inline'. A block, so nothing it declares
 * becomes a global of the page.
 */
export const BOOT_SCRIPT = `{${keepNames}(${source})(((src) => () => import(src))(document.currentScript.dataset.src));}`;
