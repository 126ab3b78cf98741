import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

/**
 * Checks JSON-LD objects against schema.org's vocabulary as `schema-dts` (Google's typings of
 * schema.org, generated from its definitions) spells it: every object is compiled as a
 * `WithContext<T>` literal, so an unknown property, a value of the wrong type or an enumeration
 * member that does not exist is a type error. Returns the compiler's messages, none when all fit.
 */
export function schemaOrgProblems(type: 'Product', values: readonly unknown[]): string[] {
  const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
  const file = join(root, 'test', '__schema-org-check__.ts');
  const source = [
    `import type { ${type}, WithContext } from 'schema-dts';`,
    ...values.map((v, i) => `export const value${i}: WithContext<${type}> = ${JSON.stringify(v)};`),
  ].join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => (name === file ? source : readFile(name));
  host.fileExists = (name) => name === file || ts.sys.fileExists(name);
  host.getSourceFile = (name, version, ...rest) =>
    name === file ? ts.createSourceFile(name, source, version) : getSourceFile(name, version, ...rest);
  const program = ts.createProgram([file], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    .map((m) => m.slice(0, 400));
}
