import { LAYOUT_NAMES } from '../../client/layouts/layouts.ts';
import type { LayoutName } from '../../common/content.ts';

/**
 * Every layout is loaded ahead of time, so a prefetched route finds its layout's stylesheet in the
 * cache whichever layout it uses: a page names, as idle-priority prefetches, the stylesheets of the
 * other layouts that are not its own file. A link target's layout is only known after reading its
 * template, and the speculation-rules prefetch (the path Chromium takes, with no script on the
 * page) fetches the document alone, so the whole small, immutable set is named instead of one
 * guessed file. The build folds identical layout stylesheets into one file; then there is none.
 */
export function otherLayoutStylesheets(stylesheetOf: (layout: LayoutName) => string, own: LayoutName): string[] {
  const ownFile = stylesheetOf(own);
  const others = new Set<string>();
  for (const layout of LAYOUT_NAMES) {
    const file = stylesheetOf(layout);
    if (file !== ownFile) others.add(file);
  }
  return [...others];
}
