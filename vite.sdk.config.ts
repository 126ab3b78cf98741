import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { transform as transformCss } from 'lightningcss';
import ts from 'typescript';
import { defineConfig, type Plugin, type UserConfig } from 'vite';

/**
 * The live-preview layer's build (`vite build --app -c vite.sdk.config.ts`), three outputs in order:
 * - `chunks`: the lazy chunks the standalone script imports by URL (sanitiser, page morph; later
 *   the visual builder and collaboration), ES modules with hashed names in dist/client/sdk/;
 * - `standalone`: the script preview pages load, one IIFE in dist/client/sdk/ that knows the
 *   chunks' file names; the server finds it through `.vite/sdk-manifest.json`;
 * - `library`: the ES module with the public API for any site, with its types, in dist/sdk/.
 * Manifests sit in dist/client/.vite/, which the static server never serves.
 * See docs/decisions/0005-preview-transport.md.
 */

const CLIENT_DIR = 'dist/client';
const LIBRARY_DIR = 'dist/sdk';
export const CHUNKS_MANIFEST = '.vite/sdk-chunks.json';
/** Read by server/render/assets.ts. */
export const SDK_MANIFEST = '.vite/sdk-manifest.json';
const STANDALONE_ENTRY = 'sdk/site/standalone.ts';
export const CHUNK_ENTRIES = {
  sanitize: 'sdk/sanitize.ts',
  morph: 'sdk/site/morph.ts',
  builder: 'sdk/builder/builder.ts',
  collab: 'sdk/collab/collab.ts',
};

/** `virtual:vitrine-sdk-chunks`: the chunk file names, read from the manifest the chunks build wrote. */
function chunkNames(clientDir: string): Plugin {
  const id = 'virtual:vitrine-sdk-chunks';
  return {
    name: 'vitrine-sdk-chunks',
    applyToEnvironment: (environment) => environment.name === 'standalone',
    resolveId: (source) => (source === id ? `\0${id}` : undefined),
    load(loaded) {
      if (loaded !== `\0${id}`) return undefined;
      const manifest = JSON.parse(readFileSync(resolve(clientDir, CHUNKS_MANIFEST), 'utf8')) as Record<
        string,
        { file: string }
      >;
      // Both builds write into sdk/: the script imports its chunks relative to itself.
      const names = Object.fromEntries(
        Object.entries(CHUNK_ENTRIES).map(([name, src]) => [name, manifest[src]?.file.replace(/^sdk\//, '')]),
      );
      return `export default ${JSON.stringify(names)};`;
    },
  };
}

/**
 * `css` literals (sdk/view/css.ts) minified as stylesheets: indentation and spaces are a fifth of
 * the builder's and collaboration's styles. Literals with interpolations or escapes are left alone.
 */
export function minifiedCss(): Plugin {
  // After `=`, `(` or `,`: a tagged literal in code, not the word in a comment.
  const literal = /([=(,]\s*)css`([^`$\\]*)`/g;
  return {
    name: 'vitrine-sdk-css',
    transform(code, id) {
      if (!id.includes('/sdk/') || !code.includes('css`')) return undefined;
      const minified = code.replace(literal, (_match, before: string, text: string) => {
        const { code: out } = transformCss({ filename: id, code: Buffer.from(text), minify: true });
        return `${before}\`${out.toString()}\``;
      });
      return minified === code ? undefined : { code: minified, map: null };
    },
  };
}

/** Declaration files of the public API, beside the library build. */
function declarations(outDir: string): Plugin {
  return {
    name: 'vitrine-sdk-declarations',
    applyToEnvironment: (environment) => environment.name === 'library',
    closeBundle() {
      const program = ts.createProgram(['sdk/index.ts'], {
        declaration: true,
        emitDeclarationOnly: true,
        allowImportingTsExtensions: true,
        rewriteRelativeImportExtensions: true,
        strict: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
        types: [],
        skipLibCheck: true,
        // The sanitiser shares the server's allow-list from common/: types land under sdk/ and common/.
        rootDir: '.',
        outDir,
      });
      const result = program.emit();
      const errors = ts.getPreEmitDiagnostics(program).concat(result.diagnostics);
      if (errors.length > 0)
        throw new Error(
          ts.formatDiagnostics(errors, {
            getCanonicalFileName: (f) => f,
            getCurrentDirectory: () => '.',
            getNewLine: () => '\n',
          }),
        );
    },
  };
}

const shared = { target: 'es2022', emptyOutDir: false, copyPublicDir: false } as const;

export interface SdkBuildOptions {
  /** Where the script and its chunks go (under sdk/) with their manifests (under .vite/). */
  clientDir: string;
  /** Where the library goes; without it the library is not built (the size test needs none). */
  libraryDir?: string;
}

/** The build as a function of where it writes, so the size test can build what ships into a scratch directory. */
export function sdkBuildConfig({ clientDir, libraryDir }: SdkBuildOptions): UserConfig {
  const environments = libraryDir ? ['chunks', 'standalone', 'library'] : ['chunks', 'standalone'];
  return {
    publicDir: false,
    plugins: [minifiedCss(), chunkNames(clientDir), ...(libraryDir ? [declarations(`${libraryDir}/types`)] : [])],
    environments: {
      chunks: {
        consumer: 'client',
        build: {
          ...shared,
          outDir: clientDir,
          manifest: CHUNKS_MANIFEST,
          rollupOptions: {
            input: CHUNK_ENTRIES,
            // Imported by URL at run time: keep their exports.
            preserveEntrySignatures: 'exports-only',
            output: { format: 'es', entryFileNames: 'sdk/[name]-[hash].js', chunkFileNames: 'sdk/[name]-[hash].js' },
          },
        },
      },
      standalone: {
        consumer: 'client',
        build: {
          ...shared,
          outDir: clientDir,
          manifest: SDK_MANIFEST,
          rollupOptions: {
            input: { preview: STANDALONE_ENTRY },
            output: { format: 'iife', entryFileNames: 'sdk/[name]-[hash].js' },
          },
        },
      },
      ...(libraryDir && {
        library: {
          consumer: 'client',
          build: {
            ...shared,
            emptyOutDir: true,
            outDir: libraryDir,
            lib: { entry: 'sdk/index.ts', formats: ['es'], fileName: 'index' },
          },
        },
      }),
    },
    builder: {
      async buildApp(builder) {
        // In this order: the standalone script reads the chunks' manifest.
        for (const name of environments) {
          const environment = builder.environments[name];
          if (environment) await builder.build(environment);
        }
      },
    },
  };
}

export default defineConfig(sdkBuildConfig({ clientDir: CLIENT_DIR, libraryDir: LIBRARY_DIR }));
