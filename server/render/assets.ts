import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DocumentAssets } from '../../client/document.tsx';
import type { LayoutName } from '../../common/content.ts';

/** URL prefix of every built asset; served immutable (issue 2). */
export const ASSETS_PREFIX = '/assets/';

export interface AssetManifest {
  /** Identifies this build; the browser compares it with builds/latest.json (issue 7). */
  build: { id: string; timestamp: number };
  /** Chunk URL of an island, or of the runtime (`runtime`). */
  islandUrl(name: string): string;
  /** Stylesheet, runtime and modulepreloads for a page with these islands (none: no script at all). */
  documentAssets(layout: LayoutName, islands: readonly string[]): DocumentAssets;
  /** Every file the page loads with these islands, for the bench's byte counts. */
  scriptFiles(islands: readonly string[]): string[];
}

interface ViteManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
  src?: string;
}
type ViteManifest = Record<string, ViteManifestChunk>;

/** Island name → its source entry; must match vite.config.ts ISLAND_ENTRIES. */
export const ISLAND_SOURCES: Record<string, string> = {
  runtime: 'islands/main.ts',
  header: 'islands/header/Header.tsx',
  parallax: 'islands/parallax/Parallax.tsx',
};

export function manifestFromVite(manifest: ViteManifest, builtAt = 0): AssetManifest {
  const chunk = (src: string) => {
    const found = manifest[src];
    if (!found) throw new Error(`The build manifest has no entry for ${src}: run \`npm run build\``);
    return found;
  };
  /** The chunk's file and every file it imports, transitively, in load order. */
  const closure = (src: string, seen = new Set<string>()): string[] => {
    if (seen.has(src)) return [];
    seen.add(src);
    const c = chunk(src);
    return [c.file, ...(c.imports ?? []).flatMap((dep) => closure(dep, seen))];
  };
  const islandSource = (name: string) => {
    const src = ISLAND_SOURCES[name];
    if (!src) throw new Error(`Unknown island ${name}`);
    return src;
  };
  const url = (file: string) => ASSETS_PREFIX + file;
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
      const files = scriptFiles(islands);
      return {
        stylesheet: url(chunk(`client/layouts/${layout}.css`).file),
        runtime: files.length ? url(chunk(ISLAND_SOURCES.runtime as string).file) : null,
        modulePreloads: files.slice(1).map(url),
      };
    },
    scriptFiles,
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
  return manifestFromVite(JSON.parse(raw) as ViteManifest, Math.round(statSync(file).mtimeMs));
}
