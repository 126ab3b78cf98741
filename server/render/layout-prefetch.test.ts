import t from 'tap';
import { LAYOUT_NAMES } from '../../client/layouts/layouts.ts';
import type { LayoutName } from '../../common/content.ts';
import { layoutPrefetchHeader } from './layout-prefetch.ts';

/** A build whose layouts use the stylesheets `files` names (the build may fold identical ones). */
const build = (files: Partial<Record<LayoutName, string>>) => ({
  documentAssets: (layout: LayoutName) => ({
    stylesheet: files[layout] ?? '/assets/shared.css',
    runtime: null,
    modulePreloads: [],
  }),
});

const distinct = Object.fromEntries(LAYOUT_NAMES.map((l) => [l, `/assets/${l}.css`])) as Record<LayoutName, string>;

t.test('a page names every other layout stylesheet as a prefetch, never its own', async (t) => {
  const rows: [string, Partial<Record<LayoutName, string>>, LayoutName, string | null][] = [
    [
      'six files',
      distinct,
      'default',
      '</assets/base.css>; rel=prefetch; as=style, </assets/base-static.css>; rel=prefetch; as=style, ' +
        '</assets/base-logo-only.css>; rel=prefetch; as=style, </assets/base-minimal.css>; rel=prefetch; as=style, ' +
        '</assets/minimal.css>; rel=prefetch; as=style',
    ],
    ['one file for all (the build folded them)', {}, 'minimal', null],
    [
      'two files, the page has the odd one',
      { minimal: '/assets/min.css' },
      'minimal',
      '</assets/shared.css>; rel=prefetch; as=style',
    ],
    [
      'two files, the page shares the common one',
      { minimal: '/assets/min.css' },
      'base',
      '</assets/min.css>; rel=prefetch; as=style',
    ],
  ];
  for (const [name, files, own, expected] of rows) t.equal(layoutPrefetchHeader(build(files), own), expected, name);
});

t.test('with six files each page names exactly the five others', async (t) => {
  for (const own of LAYOUT_NAMES) {
    const header = layoutPrefetchHeader(build(distinct), own) ?? '';
    const named = [...header.matchAll(/<([^>]+)>/g)].map((m) => m[1]);
    t.same(
      named.sort(),
      LAYOUT_NAMES.filter((l) => l !== own)
        .map((l) => `/assets/${l}.css`)
        .sort(),
      own,
    );
  }
});
