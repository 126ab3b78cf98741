import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createBuilder } from 'vite';
import { CHUNK_ENTRIES, CHUNKS_MANIFEST, SDK_MANIFEST, sdkBuildConfig } from '../vite.sdk.config.ts';

/**
 * Sizes of the preview layer as it ships: the real build (vite.sdk.config.ts) into a scratch
 * directory, each file gzipped at level 9, so they compare with the reference's 374 KB / 121 KB and
 * Contentful's 34 KB / 12.4 KB. The core is the standalone script every preview page loads; the
 * chunks load on demand. What two chunks share is a file of its own: a chunk's budget holds its own
 * file, the total counts every file once, and what loading a chunk costs (its file and the shared
 * files it imports) is printed beside it. `npx tsx scripts/sdk-size.ts` prints them; the benchmark
 * imports `measureSdk`.
 */

/** The preview core stays within 10 KB gzip. */
export const CORE_BUDGET_GZIP = 10 * 1024;
/** The lazy chunks' budgets, each for its own file: the visual builder and collaboration. */
export const BUILDER_BUDGET_GZIP = 20 * 1024;
export const COLLAB_BUDGET_GZIP = 9 * 1024;
/**
 * All preview code together: the core and every chunk and shared file, each once. 58 KB since
 * issue 33 (4.4.1's requests and features; the 4.4.1 package itself is 132 KB).
 */
export const TOTAL_BUDGET_GZIP = 58 * 1024;

type ChunkName = keyof typeof CHUNK_ENTRIES;

export interface SdkSize {
  min: number;
  gzip: number;
}

export interface SdkSizes {
  core: SdkSize;
  /** Each lazy chunk's own file. */
  chunks: Record<ChunkName, SdkSize>;
  /** Each lazy chunk with the shared files it imports: what loading it costs. */
  loads: Record<ChunkName, SdkSize>;
  /** The files only other chunks import, together. */
  shared: SdkSize;
  total: SdkSize;
}

/** The part of a Vite manifest this reads. */
type Manifest = Record<string, { file: string; isEntry?: boolean; imports?: string[] }>;

const root = fileURLToPath(new URL('..', import.meta.url));

/** A chunk's file and every file it imports, directly or through another, as manifest keys. */
function closure(manifest: Manifest, key: string): Set<string> {
  const seen = new Set<string>();
  const visit = (k: string) => {
    if (seen.has(k)) return;
    seen.add(k);
    for (const imported of manifest[k]?.imports ?? []) visit(imported);
  };
  visit(key);
  return seen;
}

export async function measureSdk(): Promise<SdkSizes> {
  const clientDir = await mkdtemp(join(tmpdir(), 'vitrine-sdk-size-'));
  try {
    const builder = await createBuilder({
      ...sdkBuildConfig({ clientDir }),
      configFile: false,
      root,
      logLevel: 'silent',
    });
    await builder.buildApp();
    const read = async (file: string) => JSON.parse(await readFile(join(clientDir, file), 'utf8')) as Manifest;
    const [chunksManifest, coreManifest] = await Promise.all([read(CHUNKS_MANIFEST), read(SDK_MANIFEST)]);
    const sizes = new Map<string, SdkSize>();
    for (const file of await readdir(join(clientDir, 'sdk'))) {
      const code = await readFile(join(clientDir, 'sdk', file));
      sizes.set(`sdk/${file}`, { min: code.length, gzip: gzipSync(code, { level: 9 }).length });
    }
    const sum = (files: Iterable<string>): SdkSize =>
      [...files].reduce(
        (total, file) => {
          const size = sizes.get(file) ?? { min: 0, gzip: 0 };
          return { min: total.min + size.min, gzip: total.gzip + size.gzip };
        },
        { min: 0, gzip: 0 },
      );
    const fileOf = (keys: Iterable<string>) => [...keys].map((key) => chunksManifest[key]?.file ?? key);
    const entries = Object.entries(CHUNK_ENTRIES) as [ChunkName, string][];
    const byChunk = (files: (src: string) => Iterable<string>) =>
      Object.fromEntries(entries.map(([name, src]) => [name, sum(fileOf(files(src)))])) as Record<ChunkName, SdkSize>;
    const sharedFiles = Object.values(chunksManifest)
      .filter((chunk) => !chunk.isEntry)
      .map((chunk) => chunk.file);
    return {
      core: sum(Object.values(coreManifest).map((chunk) => chunk.file)),
      chunks: byChunk((src) => [src]),
      loads: byChunk((src) => closure(chunksManifest, src)),
      shared: sum(sharedFiles),
      total: sum(sizes.keys()),
    };
  } finally {
    await rm(clientDir, { recursive: true, force: true });
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const DESCRIPTIONS: Record<ChunkName, string> = {
  sanitize: 'sanitize chunk (DOMPurify)',
  morph: 'morph chunk (page morph)',
  builder: 'builder chunk (visual builder)',
  collab: 'collab chunk (comment threads)',
};

/** Whether each budget holds, by name, for the test and the command line. */
export function overBudget({ core, chunks, total }: SdkSizes): string[] {
  const checks: [string, number, number][] = [
    ['preview core', core.gzip, CORE_BUDGET_GZIP],
    ['builder chunk', chunks.builder.gzip, BUILDER_BUDGET_GZIP],
    ['collaboration chunk', chunks.collab.gzip, COLLAB_BUDGET_GZIP],
    ['all preview code', total.gzip, TOTAL_BUDGET_GZIP],
  ];
  return checks
    .filter(([, size, budget]) => size > budget)
    .map(([name, size, budget]) => `${name}: ${kb(size)} gzip over its ${kb(budget)} budget`);
}

/** One line each, `preview script` first as the benchmark table expects. */
export function formatSdkSizes({ core, chunks, loads, shared, total }: SdkSizes): string[] {
  const budgets: Partial<Record<ChunkName, number>> = { builder: BUILDER_BUDGET_GZIP, collab: COLLAB_BUDGET_GZIP };
  return [
    `preview script: ${kb(core.min)} min, ${kb(core.gzip)} gzip (budget ${kb(CORE_BUDGET_GZIP)} gzip)`,
    ...(Object.keys(chunks) as ChunkName[]).map((name) => {
      const budget = budgets[name];
      return `  ${DESCRIPTIONS[name]}: ${kb(chunks[name].min)} min, ${kb(chunks[name].gzip)} gzip${budget ? ` (budget ${kb(budget)} gzip)` : ''}, ${kb(loads[name].gzip)} gzip with the shared files it loads, on demand`;
    }),
    `  shared between chunks (@floating-ui/dom, morphdom, templates): ${kb(shared.min)} min, ${kb(shared.gzip)} gzip`,
    `  all preview code: ${kb(total.min)} min, ${kb(total.gzip)} gzip (budget ${kb(TOTAL_BUDGET_GZIP)} gzip)`,
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const sizes = await measureSdk();
  for (const line of formatSdkSizes(sizes)) console.log(line);
  const over = overBudget(sizes);
  for (const line of over) console.error(line);
  if (over.length > 0) process.exitCode = 1;
}
