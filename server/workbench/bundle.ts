import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

/** The bundle: built by `vite build -c vite.workbench.config.ts`, or bundled now from source when there is no build. */
export async function bundle(deps: { bundleDir?: string }): Promise<string | null> {
  const built = resolve(deps.bundleDir ?? 'dist/workbench', 'workbench.js');
  if (existsSync(built)) return readFile(built, 'utf8');
  const source = resolve('workbench/main.ts');
  if (!existsSync(source)) return null;
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [source],
    bundle: true,
    format: 'iife',
    write: false,
    target: 'es2022',
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? null;
}
