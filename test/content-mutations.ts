import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import fc from 'fast-check';
import { Window } from 'happy-dom';

/**
 * Content mutated the way editors do: an optional field removed, a group emptied, a number where
 * text was expected, a very long or hostile string, a null, an object where a list was expected.
 * Used by the property test of content tolerance (test/content-fuzz.test.ts).
 */

export type Tree = Map<string, unknown>;

/** Markers the property test looks for: none may come back as live markup. */
export const HOSTILE = [
  '<script>alert("FUZZ")</script>',
  '"><img src=x onerror=fuzz()>',
  'javascript:fuzz()',
  "'><svg onload=fuzz()>",
  '</title><script>fuzz()</script>',
  '{{constructor.constructor("fuzz")()}}',
  '../../../etc/passwd',
  '%3Cscript%3Efuzz()%3C/script%3E',
] as const;

export type MutationKind = 'remove' | 'empty' | 'number' | 'long' | 'hostile' | 'null' | 'wrong-shape';
const KINDS: readonly MutationKind[] = ['remove', 'empty', 'number', 'long', 'hostile', 'null', 'wrong-shape'];

export interface Mutation {
  /** Picks the file (modulo the number of files). */
  file: number;
  /** Picks the node inside the file (modulo its number of nodes). */
  node: number;
  kind: MutationKind;
  /** Picks the hostile string. */
  pick: number;
}

export const mutationArbitrary: fc.Arbitrary<Mutation> = fc.record({
  file: fc.nat(),
  node: fc.nat(),
  kind: fc.constantFrom(...KINDS),
  pick: fc.nat(),
});

/** Every `.json` file under `dir`, parsed, keyed by its path relative to `dir`. */
export function readTree(dir: string): Tree {
  const tree: Tree = new Map();
  const walk = (folder: string) => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.json')) tree.set(relative(dir, path), JSON.parse(readFileSync(path, 'utf8')));
    }
  };
  walk(dir);
  return tree;
}

export function writeTree(dir: string, tree: Tree): void {
  for (const [file, value] of tree) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), JSON.stringify(value));
  }
}

type Path = (string | number)[];

/** Paths of every value inside `value` (the root excluded). */
function nodePaths(value: unknown, base: Path = []): Path[] {
  if (typeof value !== 'object' || value === null) return [];
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value);
  return entries.flatMap(([key, child]) => [[...base, key], ...nodePaths(child, [...base, key])]);
}

/** The mutated tree (a new one: the input is not changed) and a label for the failure report. */
export function applyMutations(tree: Tree, mutations: readonly Mutation[]): { tree: Tree; labels: string[] } {
  const next: Tree = new Map([...tree].map(([file, value]) => [file, structuredClone(value)]));
  const files = [...next.keys()];
  const labels: string[] = [];
  for (const m of mutations) {
    const file = files[m.file % files.length] as string;
    const root = next.get(file);
    const paths = nodePaths(root);
    if (paths.length === 0) continue;
    const path = paths[m.node % paths.length] as Path;
    const parent = path.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], root) as
      | Record<string | number, unknown>
      | unknown[];
    const key = path[path.length - 1] as string | number;
    const current = (parent as Record<string | number, unknown>)[key];
    labels.push(`${file} $.${path.join('.')}: ${m.kind}`);
    const set = (value: unknown) => {
      (parent as Record<string | number, unknown>)[key] = value;
    };
    switch (m.kind) {
      case 'remove':
        if (Array.isArray(parent)) parent.splice(Number(key), 1);
        else delete (parent as Record<string, unknown>)[key];
        break;
      case 'empty':
        set(Array.isArray(current) ? [] : typeof current === 'object' && current !== null ? {} : '');
        break;
      case 'number':
        set(m.pick % 3 === 0 ? -1 : m.pick % 3 === 1 ? 1e21 : 4711);
        break;
      case 'long':
        set(`${HOSTILE[m.pick % HOSTILE.length]}${'x'.repeat(20_000)}`);
        break;
      case 'hostile':
        set(HOSTILE[m.pick % HOSTILE.length]);
        break;
      case 'null':
        set(null);
        break;
      case 'wrong-shape':
        set(Array.isArray(current) ? { 0: current[0] } : typeof current === 'object' ? [current] : { value: current });
        break;
    }
  }
  return { tree: next, labels };
}

/**
 * The first hostile marker `body` carries as live markup, if any: a script element running it, an
 * event-handler attribute calling it, a script URL in a link. The document is parsed, so a marker
 * escaped into text or an attribute value does not count.
 */
export async function unescapedMarkup(body: string): Promise<string | undefined> {
  const window = new Window({
    settings: { disableJavaScriptEvaluation: true, disableJavaScriptFileLoading: true, disableCSSFileLoading: true },
  });
  try {
    const document = window.document;
    document.write(body);
    for (const script of document.querySelectorAll('script')) {
      const type = script.getAttribute('type') ?? '';
      if (!/json/.test(type) && /fuzz|FUZZ/.test(script.textContent ?? '')) return `<script> ${script.textContent}`;
    }
    for (const element of document.querySelectorAll('*')) {
      for (const attribute of element.attributes) {
        const name = attribute.name.toLowerCase();
        const value = (attribute.value ?? '').trim().toLowerCase();
        if (name.startsWith('on') && value.includes('fuzz')) return `${element.tagName} ${name}="${attribute.value}"`;
        if (['href', 'src', 'action', 'formaction'].includes(name) && value.startsWith('javascript:'))
          return `${element.tagName} ${name}="${attribute.value}"`;
      }
    }
    return undefined;
  } finally {
    // Closing is asynchronous: a window not waited for keeps its document alive.
    await window.happyDOM.close();
  }
}
