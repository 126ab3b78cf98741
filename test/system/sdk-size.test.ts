import t from 'tap';
import {
  BUILDER_BUDGET_GZIP,
  COLLAB_BUDGET_GZIP,
  CORE_BUDGET_GZIP,
  formatSdkSizes,
  measureSdk,
  overBudget,
  TOTAL_BUDGET_GZIP,
} from '../../scripts/sdk-size.ts';

/** The preview layer's size budgets, measured on the real build (vite.sdk.config.ts). */

const sizes = await measureSdk();

t.test('the preview core stays within 10 KB gzip, the builder chunk 20 KB, collaboration 9 KB', async (t) => {
  t.ok(sizes.core.gzip <= CORE_BUDGET_GZIP, `core ${sizes.core.gzip} bytes gzip`);
  t.ok(sizes.chunks.builder.gzip <= BUILDER_BUDGET_GZIP, `builder chunk ${sizes.chunks.builder.gzip} bytes gzip`);
  t.ok(sizes.chunks.collab.gzip <= COLLAB_BUDGET_GZIP, `collaboration chunk ${sizes.chunks.collab.gzip} bytes gzip`);
});

t.test('all preview code stays within 58 KB gzip, shared files counted once', async (t) => {
  t.ok(sizes.total.gzip <= TOTAL_BUDGET_GZIP, `all preview code ${sizes.total.gzip} bytes gzip`);
  t.same(overBudget(sizes), []);
  const own = Object.values(sizes.chunks).reduce((sum, c) => sum + c.gzip, 0);
  // Every file once: the core, each chunk's own file and the shared files.
  t.equal(sizes.total.gzip, sizes.core.gzip + own + sizes.shared.gzip);
  for (const [name, loads] of Object.entries(sizes.loads))
    t.ok(loads.gzip >= sizes.chunks[name as keyof typeof sizes.chunks].gzip, `${name} loads at least its own file`);
});

t.test('the sanitiser and the morph are chunks of their own, loaded on demand', async (t) => {
  t.ok(sizes.chunks.sanitize.gzip > 0 && sizes.chunks.morph.gzip > 0);
  t.match(formatSdkSizes(sizes)[0], /^preview script: [\d.]+ KB min, [\d.]+ KB gzip/);
});

t.test('a size over a budget is named with its figures', async (t) => {
  const over = overBudget({ ...sizes, total: { min: 0, gzip: TOTAL_BUDGET_GZIP + 1024 } });
  t.match(over, [/^all preview code: [\d.]+ KB gzip over its 58\.0 KB budget$/]);
});
