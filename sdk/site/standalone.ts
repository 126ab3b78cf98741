import chunks from 'virtual:vitrine-sdk-chunks';
import { createLivePreview } from '../api.ts';
import { logger } from '../logger.ts';
import { readPageConfig } from './page-config.ts';
import { createRefresh, type MorphPage } from './refresh.ts';

/**
 * The script the site injects into preview pages (an IIFE, loaded with `defer`): starts the layer
 * with the page's configuration and refreshes the page on every entry change. The benchmark
 * measures this file as the preview core; everything else loads on demand from beside it.
 */

// A user-timing mark, so the time from script start to the editor's `init` can be measured.
performance.mark('vitrine-preview:start');

// `currentScript` is only set while the script first runs: resolve chunk URLs against it now.
const base = (document.currentScript as HTMLScriptElement | null)?.src ?? location.href;
const load = <T>(file: string): Promise<T> => import(/* @vite-ignore */ new URL(file, base).href);

const layer = createLivePreview({
  sanitizer: () => load<typeof import('../sanitize.ts')>(chunks.sanitize).then((chunk) => chunk.sanitizeHtml),
  builder: () => load<typeof import('../builder/builder.ts')>(chunks.builder),
  collab: () => load<typeof import('../collab/collab.ts')>(chunks.collab),
});
const morph = () => load<{ morphPage: MorphPage }>(chunks.morph).then((chunk) => chunk.morphPage);
const page = readPageConfig(document);
// The editor opens the page with `builder` in the URL when it wants the visual builder, and a
// preview-share link with `preview_share` (4.0.1), where reviewers hover, focus and comment.
const query = new URLSearchParams(location.search);
const builder = query.get('builder') || query.get('preview_share');
if (page)
  layer
    .init(builder ? { ...page.init, mode: 'builder' } : page.init)
    .then(() => layer.onLiveEdit(createRefresh(window, () => layer.hash, morph)))
    .catch((error: unknown) => logger.error(error));
