import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';

/**
 * Sizes of the preview layer, measured as issue 9 asks (esbuild-minified IIFE, gzip -9) so they
 * compare with the reference's 374 KB / 121 KB and Contentful's 34 KB / 12.4 KB. The core is the
 * standalone script every preview page loads; the chunks load on demand. `npx tsx scripts/sdk-size.ts`
 * prints them; the benchmark imports `measureSdk`.
 */

/** Issue 9: the preview core stays within 10 KB gzip. */
export const CORE_BUDGET_GZIP = 10 * 1024;
/** The lazy chunks' budgets: the visual builder and collaboration. */
export const BUILDER_BUDGET_GZIP = 20 * 1024;
export const COLLAB_BUDGET_GZIP = 9 * 1024;
/** The target for all preview code together (core and every chunk). */
export const TOTAL_TARGET_GZIP = 50 * 1024;

export interface SdkSize {
  name: string;
  min: number;
  gzip: number;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const PARTS = [
  { name: 'core (standalone script)', entry: 'sdk/site/standalone.ts', format: 'iife' },
  { name: 'sanitize chunk (DOMPurify)', entry: 'sdk/sanitize.ts', format: 'esm' },
  { name: 'morph chunk (idiomorph)', entry: 'sdk/site/morph.ts', format: 'esm' },
  { name: 'builder chunk (visual builder, @floating-ui/dom)', entry: 'sdk/builder/builder.ts', format: 'esm' },
  { name: 'collab chunk (comment threads)', entry: 'sdk/collab/collab.ts', format: 'esm' },
] as const;

/** The chunk names the real build writes into the script; any name measures the same. */
const chunkNames: Plugin = {
  name: 'chunk-names',
  setup(build) {
    build.onResolve({ filter: /^virtual:vitrine-sdk-chunks$/ }, () => ({ path: 'chunks', namespace: 'chunks' }));
    build.onLoad({ filter: /.*/, namespace: 'chunks' }, () => ({
      contents:
        'export default {"sanitize":"sanitize-00000000.js","morph":"morph-00000000.js","builder":"builder-00000000.js","collab":"collab-00000000.js"}',
      loader: 'js',
    }));
  },
};

export async function measureSdk(): Promise<{ parts: SdkSize[]; total: SdkSize }> {
  const parts: SdkSize[] = [];
  for (const part of PARTS) {
    const result = await build({
      absWorkingDir: root,
      entryPoints: [part.entry],
      bundle: true,
      minify: true,
      format: part.format,
      target: 'es2022',
      write: false,
      plugins: [chunkNames],
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]?.contents ?? new Uint8Array();
    parts.push({ name: part.name, min: code.length, gzip: gzipSync(code, { level: 9 }).length });
  }
  const total = parts.reduce((sum, p) => ({ name: 'total', min: sum.min + p.min, gzip: sum.gzip + p.gzip }), {
    name: 'total',
    min: 0,
    gzip: 0,
  });
  return { parts, total };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** One line each, `preview script` first as the benchmark table expects. */
export function formatSdkSizes({ parts, total }: { parts: SdkSize[]; total: SdkSize }): string[] {
  const [core, ...chunks] = parts;
  return [
    `preview script: ${kb(core?.min ?? 0)} min, ${kb(core?.gzip ?? 0)} gzip (budget ${kb(CORE_BUDGET_GZIP)} gzip)`,
    ...chunks.map((c) => `  ${c.name}: ${kb(c.min)} min, ${kb(c.gzip)} gzip, loaded on demand`),
    `  all preview code: ${kb(total.min)} min, ${kb(total.gzip)} gzip (target ${kb(TOTAL_TARGET_GZIP)} gzip)`,
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const sizes = await measureSdk();
  for (const line of formatSdkSizes(sizes)) console.log(line);
  if ((sizes.parts[0]?.gzip ?? 0) > CORE_BUDGET_GZIP) process.exitCode = 1;
}
