import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DocumentAssets } from '../../client/document.tsx';
import type { LayoutName } from '../../common/content.ts';
import { ISLAND_ENTRIES } from '../../islands/entries.ts';
import { otherLayoutStylesheets } from './layout-prefetch.ts';

/** URL prefix of every built asset; served immutable. */
export const ASSETS_PREFIX = '/assets/';

export interface AssetManifest {
  /** Identifies this build; the browser compares it with builds/latest.json. */
  build: { id: string; timestamp: number };
  /** Chunk URL of an island, or of the runtime (`runtime`). */
  islandUrl(name: string): string;
  /** Stylesheet and runtime for a page with these islands (none: no script at all). */
  documentAssets(layout: LayoutName, islands: readonly string[]): DocumentAssets;
  /** Every file the page loads with these islands, for the bench's byte counts. */
  scriptFiles(islands: readonly string[]): string[];
  /** The live-preview script (`vite.sdk.config.ts`); absent when the SDK is not built. */
  previewScript?: string;
}

interface ViteManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
  src?: string;
}
type ViteManifest = Record<string, ViteManifestChunk>;

/** Island name → its source entry (the registry Vite builds from). */
export const ISLAND_SOURCES: Readonly<Record<string, string>> = ISLAND_ENTRIES;

/** The SDK build's entry for the standalone preview script; must match vite.sdk.config.ts. */
const PREVIEW_SCRIPT_SOURCE = 'sdk/site/standalone.ts';

export function manifestFromVite(manifest: ViteManifest, builtAt = 0, sdkManifest?: ViteManifest): AssetManifest {
  const previewFile = sdkManifest?.[PREVIEW_SCRIPT_SOURCE]?.file;
  const chunk = (src: string) => {
    const found = manifest[src];
    if (!found) throw new Error(`The build manifest has no entry for ${src}: run \`npm run build\``);
    return found;
  };
  /**
   * The chunk's file and every file it imports, transitively, in load order. Dynamic imports count
   * too: the runtime imports the hydrating library only once a trigger fires, but every page with
   * an island loads it, so the bench counts it with the rest.
   */
  const closure = (src: string, seen = new Set<string>()): string[] => {
    if (seen.has(src)) return [];
    seen.add(src);
    const c = chunk(src);
    return [c.file, ...[...(c.imports ?? []), ...(c.dynamicImports ?? [])].flatMap((dep) => closure(dep, seen))];
  };
  const islandSource = (name: string) => {
    const src = ISLAND_SOURCES[name];
    if (!src) throw new Error(`Unknown island ${name}`);
    return src;
  };
  const url = (file: string) => ASSETS_PREFIX + file;
  const documentAssetsMemo = new Map<string, DocumentAssets>();
  const scriptFiles = (islands: readonly string[]) => {
    if (islands.length === 0) return [];
    const files = new Set<string>();
    for (const name of ['runtime', ...islands]) for (const f of closure(islandSource(name))) files.add(f);
    return [...files];
  };
  return {
    // The manifest names every hashed file, so its hash changes exactly when the build does.
    build: { id: createHash('sha256').update(JSON.stringify(manifest)).digest('hex').slice(0, 12), timestamp: builtAt },
    islandUrl: (name) => url(chunk(islandSource(name)).file),
    documentAssets(layout, islands) {
      // The same few layout and island sets on every page: worked out once each (read-only).
      const key = `${layout}|${islands.join(',')}`;
      const known = documentAssetsMemo.get(key);
      if (known) return known;
      const files = scriptFiles(islands);
      const assets = Object.freeze({
        stylesheet: url(chunk(`client/layouts/${layout}.css`).file),
        stylesheetPrefetches: Object.freeze(
          otherLayoutStylesheets((l) => url(chunk(`client/layouts/${l}.css`).file), layout),
        ) as string[],
        runtime: files.length ? url(chunk(ISLAND_SOURCES.runtime as string).file) : null,
        // Nothing preloaded: what islands need is fetched after the page's load, at the runtime's
        // own pace, so it never competes with the hero image (decision 0153).
        modulePreloads: Object.freeze<string[]>([]) as string[],
      });
      if (documentAssetsMemo.size < 1000) documentAssetsMemo.set(key, assets);
      return assets;
    },
    scriptFiles,
    ...(previewFile ? { previewScript: ASSETS_PREFIX + previewFile } : {}),
  };
}

/** Reads the manifest Vite wrote into `dist/client`. */
export function loadAssetManifest(clientDir: string): AssetManifest {
  const file = join(clientDir, '.vite', 'manifest.json');
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch {
    throw new Error(`No build found in ${clientDir}: run \`npm run build\` (npm start builds automatically)`);
  }
  return manifestFromVite(
    JSON.parse(raw) as ViteManifest,
    Math.round(statSync(file).mtimeMs),
    readSdkManifest(clientDir),
  );
}

/** The SDK build's manifest, written after the client build into the same folder; absent before it runs. */
function readSdkManifest(clientDir: string): ViteManifest | undefined {
  try {
    return JSON.parse(readFileSync(join(clientDir, '.vite', 'sdk-manifest.json'), 'utf8')) as ViteManifest;
  } catch {
    return undefined;
  }
}
