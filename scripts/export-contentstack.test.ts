import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { contentTypes, type StackField } from './contentstack-model.ts';
import { MODEL_DIR, readContent, writeExport } from './export-contentstack.ts';

/**
 * The content model kept in the repository is the one the demo needs, and the export fits it:
 * every field of every exported entry is declared by its content type, and every reference names
 * an entry of the same locale.
 */

const content = readContent('content');
const types = contentTypes(content);
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

t.test('the content types in contentstack/ are the ones the demo content needs', async (t) => {
  t.same(
    readJson(join(MODEL_DIR, 'schema.json')),
    types,
    'regenerate with: npx tsx scripts/export-contentstack.ts --model',
  );
  for (const type of types) t.same(readJson(join(MODEL_DIR, `${type.uid}.json`)), type, type.uid);
});

t.test('every content type starts with the mandatory title; pages are found by a unique uuid', async (t) => {
  for (const type of types) t.match(type.schema[0], { uid: 'title', mandatory: true }, type.uid);
  const page = types.find((type) => type.uid === 'page');
  t.match(
    page?.schema.find((f) => f.uid === 'uuid'),
    { data_type: 'text', unique: true, mandatory: true },
  );
  const components = types.filter((type) => !['page', 'page_template', 'application_configuration'].includes(type.uid));
  const zone = types.find((type) => type.uid === 'page_template')?.schema.find((f) => f.uid === 'body_components');
  t.same(zone?.reference_to, components.map((c) => c.uid).sort());
});

/** The first field of `value` its schema does not declare, as a JSON path; null when all are declared. */
function undeclared(value: Record<string, unknown>, schema: StackField[], path: string): string | null {
  for (const [key, field] of Object.entries(value)) {
    if (key === 'uid' || key === '_content_type_uid' || key === 'publish_details') continue;
    const declared = schema.find((f) => f.uid === key);
    if (!declared) return `${path}.${key}`;
    if (declared.data_type !== 'group') continue;
    for (const [i, item] of (Array.isArray(field) ? field : [field]).entries()) {
      const problem = undeclared(item as Record<string, unknown>, declared.schema ?? [], `${path}.${key}[${i}]`);
      if (problem) return problem;
    }
  }
  return null;
}

t.test('the export: every entry fits its content type and every reference resolves', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-export-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeExport(dir, content);
  t.same(Object.keys(readJson(join(dir, 'locales', 'master-locale.json'))), ['en-gb']);
  t.equal(Object.keys(readJson(join(dir, 'locales', 'locales.json'))).length, 28);
  const entries = (type: string, locale: string): Record<string, Record<string, unknown>> => {
    try {
      return readJson(join(dir, 'entries', type, locale, 'entries.json'));
    } catch {
      return {};
    }
  };
  let checked = 0;
  const problems: string[] = [];
  for (const type of readdirSync(join(dir, 'entries'))) {
    const schema = types.find((ct) => ct.uid === type)?.schema ?? [];
    for (const locale of readdirSync(join(dir, 'entries', type))) {
      for (const [uid, entry] of Object.entries(entries(type, locale))) {
        checked++;
        const problem = undeclared(entry, schema, `${type}/${locale}/${uid}`);
        if (problem) problems.push(`${problem} is not declared`);
        for (const field of schema.filter((f) => f.data_type === 'reference')) {
          for (const ref of (entry[field.uid] ?? []) as { uid: string; _content_type_uid: string }[]) {
            if (!entries(ref._content_type_uid, locale)[ref.uid])
              problems.push(`${type}/${locale}/${uid} → ${ref.uid}`);
          }
        }
      }
    }
  }
  t.same(problems, []);
  t.same(entries('page', 'de-ch')['page-4711']?.publish_details, [{ environment: 'production', locale: 'de-ch' }]);
  t.ok(checked > 500, `${checked} entries checked`);
});
