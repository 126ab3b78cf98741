/**
 * Writes the demo content store as a Contentstack stack export, the folder `csdx cm:stacks:import`
 * reads: content types, locales, an environment and every entry of every locale, each marked for
 * publishing to that environment. With `--model`,
 * rewrites the content types kept in the repository (contentstack/content_types/) instead.
 *
 *   npx tsx scripts/export-contentstack.ts [--content content] [--out contentstack/import]
 *   npx tsx scripts/export-contentstack.ts --model
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { contentTypes, type LocaleContent, stackEntries } from './contentstack-model.ts';

/** The stack's master language: the storefronts' fallback locale. */
export const MASTER_LOCALE = 'en-GB';
export const MODEL_DIR = 'contentstack/content_types';

const LOCALE = /^[a-z]{2}-[A-Z]{2}$/;
const readJson = (file: string): Record<string, unknown> => JSON.parse(readFileSync(file, 'utf8'));
const jsonFiles = (dir: string): string[] => {
  try {
    return readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
};

/** The embedded store's entries, locale by locale; a page's uuid is its file name, as the store reads it. */
export function readContent(dir: string): LocaleContent[] {
  return readdirSync(dir)
    .filter((name) => LOCALE.test(name))
    .sort()
    .map((locale) => {
      const pages = jsonFiles(join(dir, locale, 'pages')).map((name) => ({
        ...readJson(join(dir, locale, 'pages', name)),
        uuid: name.slice(0, -'.json'.length),
      }));
      const templates = jsonFiles(join(dir, locale, 'page_template')).map((name) =>
        readJson(join(dir, locale, 'page_template', name)),
      );
      const configFile = join(dir, locale, '_applicationConfiguration.json');
      const appConfig = jsonFiles(join(dir, locale)).includes('_applicationConfiguration.json')
        ? readJson(configFile)
        : null;
      return { locale, pages, templates, appConfig };
    });
}

const write = (file: string, value: unknown) => {
  mkdirSync(resolve(file, '..'), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
};

/** Writes the content types, one file each plus the `schema.json` list the import tool reads. */
export function writeModel(dir: string, content: LocaleContent[]): void {
  const types = contentTypes(content);
  for (const type of types) write(join(dir, `${type.uid}.json`), type);
  write(join(dir, 'schema.json'), types);
}

/** Writes the whole stack export under `out` (replacing what was there). */
export function writeExport(out: string, content: LocaleContent[], environment = 'production'): void {
  rmSync(out, { recursive: true, force: true });
  writeModel(join(out, 'content_types'), content);
  const code = (locale: string) => locale.toLowerCase();
  const master = code(MASTER_LOCALE);
  write(join(out, 'locales', 'master-locale.json'), { [master]: { uid: master, code: master, name: MASTER_LOCALE } });
  const others = content.map((c) => code(c.locale)).filter((c) => c !== master);
  write(
    join(out, 'locales', 'locales.json'),
    Object.fromEntries(others.map((c) => [c, { uid: c, code: c, name: c, fallback_locale: master }])),
  );
  write(join(out, 'environments', 'environments.json'), {
    [environment]: { uid: environment, name: environment, urls: [] },
  });
  for (const locale of content) {
    for (const [type, entries] of stackEntries(locale)) {
      const folder = join(out, 'entries', type, code(locale.locale));
      write(join(folder, 'index.json'), { '1': 'entries.json' });
      // The import tool publishes every entry to the environments its publish details name.
      const publish_details = [{ environment, locale: code(locale.locale) }];
      const published = [...entries].map(([uid, entry]) => [uid, { ...entry, publish_details }]);
      write(join(folder, 'entries.json'), Object.fromEntries(published));
    }
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const { values } = parseArgs({
    options: {
      content: { type: 'string', default: 'content' },
      out: { type: 'string', default: 'contentstack/import' },
      model: { type: 'boolean', default: false },
    },
  });
  const content = readContent(values.content);
  if (values.model) {
    writeModel(MODEL_DIR, content);
    console.log(`Content types written to ${MODEL_DIR}`);
  } else {
    writeExport(values.out, content);
    console.log(`Stack export of ${content.length} locales written to ${values.out}`);
  }
}
