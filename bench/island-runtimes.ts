import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ISLAND_RUNTIMES, type IslandRuntime, RUNTIME_RECORD } from '../islands/hydration-library.ts';
import { manifestFromVite } from '../server/render/assets.ts';
import { compressedBytes } from './compressed.ts';

/**
 * The JavaScript a page loads under each island runtime (React DOM and preact/compat): the built
 * one from dist/client, the other from a browser-only build into a temporary folder. A page's
 * islands come from its HTML, so both runtimes are counted for the same pages.
 */

export interface RuntimeBytes {
  runtime: IslandRuntime;
  built: boolean;
  page: string;
  gzip: number;
  br: number;
}

/** The island names a page's HTML carries. */
export function islandsOf(html: string): string[] {
  return [...new Set(Array.from(html.matchAll(/<vitrine-island\b[^>]*\bdata-name="([^"]+)"/g), (m) => m[1] as string))];
}

function pageBytes(clientDir: string, islands: readonly string[]): { gzip: number; br: number } {
  const manifest = manifestFromVite(JSON.parse(readFileSync(join(clientDir, '.vite', 'manifest.json'), 'utf8')));
  return compressedBytes(manifest.scriptFiles(islands).map((file) => join(clientDir, file)));
}

/** Rows for every runtime and page; `pages` maps a page's name to its HTML. */
export function runtimeRows(clientDir: string, pages: ReadonlyMap<string, string>): RuntimeBytes[] {
  const built = (JSON.parse(readFileSync(join(clientDir, RUNTIME_RECORD), 'utf8')) as { runtime: IslandRuntime })
    .runtime;
  const rows: RuntimeBytes[] = [];
  for (const runtime of ISLAND_RUNTIMES) {
    const dir = runtime === built ? clientDir : mkdtempSync(join(tmpdir(), `vitrine-${runtime}-`));
    try {
      if (runtime !== built) {
        const build = spawnSync('node_modules/.bin/vite', ['build', '--outDir', dir, '--logLevel', 'warn'], {
          env: { ...process.env, ISLAND_RUNTIME: runtime },
          stdio: ['ignore', 'ignore', 'inherit'],
        });
        if (build.status !== 0) throw new Error(`the ${runtime} browser build failed (exit ${build.status})`);
      }
      for (const [page, html] of pages)
        rows.push({ runtime, built: runtime === built, page, ...pageBytes(dir, islandsOf(html)) });
    } finally {
      if (dir !== clientDir) rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

/** The rows as lines under the main table. */
export function formatRuntimeRows(rows: readonly RuntimeBytes[]): string[] {
  const head = ['JavaScript by island runtime', 'JS gzip B', 'JS br B'];
  const body = rows.map((r) => [`${r.page}, ${r.runtime}${r.built ? ' (built)' : ''}`, String(r.gzip), String(r.br)]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((cells) => (cells[i] as string).length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)];
}
