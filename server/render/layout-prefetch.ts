import { LAYOUT_NAMES } from '../../client/layouts/layouts.ts';
import type { LayoutName } from '../../common/content.ts';
import type { AssetManifest } from './assets.ts';

/**
 * Every layout is loaded ahead of time, so a prefetched route finds its layout's stylesheet in the
 * cache whichever layout it uses: a page answers with a `Link` header naming, as idle-priority
 * prefetches, the stylesheets of the other layouts that are not its own file. A link target's
 * layout is only known after reading its template, and the speculation-rules prefetch (the path
 * Chromium takes, with no script on the page) fetches the document alone, so the whole (small,
 * immutable) set is named instead of one guessed file. The build folds identical layout
 * stylesheets into one file, and then there is nothing to name: null.
 */
export function layoutPrefetchHeader(assets: Pick<AssetManifest, 'documentAssets'>, own: LayoutName): string | null {
  const ownFile = assets.documentAssets(own, []).stylesheet;
  const others = new Set<string>();
  for (const layout of LAYOUT_NAMES) {
    const file = assets.documentAssets(layout, []).stylesheet;
    if (file !== ownFile) others.add(file);
  }
  if (others.size === 0) return null;
  return [...others].map((file) => `<${file}>; rel=prefetch; as=style`).join(', ');
}
