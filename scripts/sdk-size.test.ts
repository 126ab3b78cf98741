import t from 'tap';
import { BUILDER_BUDGET_GZIP, COLLAB_BUDGET_GZIP, CORE_BUDGET_GZIP, formatSdkSizes, measureSdk } from './sdk-size.ts';

/** Style guide 10: the preview core's budget is a test, measured as the issue measures it. */

t.test(
  'the preview core stays within 10 KB gzip, the builder chunk 20 KB, collaboration 9 KB; the chunks load on demand',
  async (t) => {
    const sizes = await measureSdk();
    const [core, sanitize, morph, builder, collab] = sizes.parts;
    t.ok(core && core.gzip <= CORE_BUDGET_GZIP, `core ${core?.gzip} bytes gzip`);
    t.ok(builder && builder.gzip <= BUILDER_BUDGET_GZIP, `builder chunk ${builder?.gzip} bytes gzip`);
    t.ok(collab && collab.gzip <= COLLAB_BUDGET_GZIP, `collaboration chunk ${collab?.gzip} bytes gzip`);
    t.ok(sanitize && morph, 'sanitiser and morph are separate chunks');
    t.equal(
      sizes.total.min,
      sizes.parts.reduce((sum, p) => sum + p.min, 0),
    );
    t.match(formatSdkSizes(sizes)[0], /^preview script: [\d.]+ KB min, [\d.]+ KB gzip/);
  },
);
