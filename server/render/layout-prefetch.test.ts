import t from 'tap';
import { LAYOUT_NAMES } from '../../client/layouts/layouts.ts';
import type { LayoutName } from '../../common/content.ts';
import { otherLayoutStylesheets } from './layout-prefetch.ts';

/** A build whose layouts use the stylesheets `files` names (the build may fold identical ones). */
const build = (files: Partial<Record<LayoutName, string>>) => (layout: LayoutName) =>
  files[layout] ?? '/assets/shared.css';

const distinct = Object.fromEntries(LAYOUT_NAMES.map((l) => [l, `/assets/${l}.css`])) as Record<LayoutName, string>;

t.test('a page names every other layout stylesheet, never its own', async (t) => {
  const rows: [string, Partial<Record<LayoutName, string>>, LayoutName, string[]][] = [
    ['one file for all (the build folded them)', {}, 'minimal', []],
    ['two files, the page has the odd one', { minimal: '/assets/min.css' }, 'minimal', ['/assets/shared.css']],
    ['two files, the page shares the common one', { minimal: '/assets/min.css' }, 'base', ['/assets/min.css']],
    [
      'three files, two layouts share one',
      { minimal: '/assets/min.css', 'base-minimal': '/assets/min.css', base: '/assets/base.css' },
      'default',
      ['/assets/base.css', '/assets/min.css'],
    ],
  ];
  for (const [name, files, own, expected] of rows) t.same(otherLayoutStylesheets(build(files), own), expected, name);
});

t.test('with six files each page names exactly the five others', async (t) => {
  for (const own of LAYOUT_NAMES) {
    t.same(
      otherLayoutStylesheets(build(distinct), own).sort(),
      LAYOUT_NAMES.filter((l) => l !== own)
        .map((l) => `/assets/${l}.css`)
        .sort(),
      own,
    );
  }
});
