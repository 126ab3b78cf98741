/**
 * The demo content in a Contentstack stack's terms: the content types a team creates once, and
 * the embedded store's entries split the way the stack keeps them. In the store a template holds
 * its components; in the stack each component is an entry of its own content type and the
 * template's zones are references to them. Pure: the CLI (export-contentstack.ts) does the I/O.
 */

type Json = Record<string, unknown>;

/** One field of a content type, in the Content Management API's schema format. */
export interface StackField {
  display_name: string;
  uid: string;
  data_type: 'text' | 'number' | 'boolean' | 'group' | 'reference';
  mandatory: boolean;
  multiple: boolean;
  unique?: boolean;
  field_metadata?: Json;
  reference_to?: string[];
  schema?: StackField[];
}

export interface StackContentType {
  title: string;
  uid: string;
  schema: StackField[];
  options: { is_page: boolean; singleton: boolean; title: string; sub_title: string[] };
}

/** An entry as the stack's import format holds it: references by uid and content type. */
export type StackEntry = Json & { uid: string; title: string };

/** The store's entries of one locale, as read from CONTENT_DIR. */
export interface LocaleContent {
  locale: string;
  pages: Json[];
  templates: Json[];
  appConfig: Json | null;
}

export const ZONES = ['header_components', 'body_components', 'footer_components'] as const;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** Fields the store's entries carry that the stack keeps itself (system fields). */
const SYSTEM = new Set(['uid', 'locale', '_content_type_uid']);

const displayName = (uid: string) =>
  uid
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .replace(/^./, (c) => c.toUpperCase());

const titleField = (): StackField => ({
  display_name: 'Title',
  uid: 'title',
  data_type: 'text',
  mandatory: true,
  multiple: false,
  unique: false,
  field_metadata: { _default: true },
});

/**
 * A field's schema inferred from every value the demo holds for it: text (rich text when a value
 * carries HTML), number, boolean, a group of the union of its objects' keys, each possibly multiple.
 */
function inferField(uid: string, values: unknown[]): StackField {
  const present = values.filter((v) => v !== undefined && v !== null);
  const multiple = present.some(Array.isArray);
  const items = multiple ? present.flatMap((v) => (Array.isArray(v) ? v : [v])) : present;
  const base = { display_name: displayName(uid), uid, mandatory: false, multiple };
  if (items.some(isObject)) {
    return { ...base, data_type: 'group', schema: inferFields(items.filter(isObject)) };
  }
  if (items.length > 0 && items.every((v) => typeof v === 'number')) return { ...base, data_type: 'number' };
  if (items.length > 0 && items.every((v) => typeof v === 'boolean')) return { ...base, data_type: 'boolean' };
  const html = items.some((v) => typeof v === 'string' && /<[a-z][^>]*>/i.test(v));
  const multiline = items.some((v) => typeof v === 'string' && v.includes('\n'));
  return {
    ...base,
    data_type: 'text',
    field_metadata: html ? { allow_rich_text: true, rich_text_type: 'advanced' } : multiline ? { multiline: true } : {},
  };
}

function inferFields(objects: Json[]): StackField[] {
  const keys = [...new Set(objects.flatMap((o) => Object.keys(o)))].filter((k) => !SYSTEM.has(k));
  return keys.map((key) =>
    inferField(
      key,
      objects.map((o) => o[key]),
    ),
  );
}

const contentType = (uid: string, title: string, schema: StackField[]): StackContentType => ({
  title,
  uid,
  schema,
  options: { is_page: uid === 'page', singleton: false, title: 'title', sub_title: [] },
});

const text = (uid: string, extra: Partial<StackField> = {}): StackField => ({
  display_name: displayName(uid),
  uid,
  data_type: 'text',
  mandatory: false,
  multiple: false,
  ...extra,
});
const group = (uid: string, schema: StackField[], multiple = false): StackField => ({
  display_name: displayName(uid),
  uid,
  data_type: 'group',
  mandatory: false,
  multiple,
  schema,
});

/** The content types of the stack: page, page_template, application_configuration, one per component. */
export function contentTypes(content: LocaleContent[]): StackContentType[] {
  const components = new Map<string, Json[]>();
  for (const { templates } of content)
    for (const template of templates)
      for (const zone of ZONES)
        for (const item of Array.isArray(template[zone]) ? template[zone] : []) {
          if (!isObject(item) || typeof item._content_type_uid !== 'string') continue;
          components.set(item._content_type_uid, [...(components.get(item._content_type_uid) ?? []), item]);
        }
  const componentUids = [...components.keys()].sort();
  const link = group('link', [text('url'), text('url_type')], true);
  const page = contentType('page', 'Page', [
    titleField(),
    text('page_title'),
    text('slug'),
    text('uuid', { mandatory: true, unique: true }),
    {
      display_name: 'Template',
      uid: 'template',
      data_type: 'reference',
      mandatory: false,
      multiple: false,
      reference_to: ['page_template'],
      field_metadata: { ref_multiple: false, ref_multiple_content_types: true },
    },
    group(
      'url_taxonomy',
      [
        group(
          'url_taxonomy_segments',
          [text('title'), text('segment'), { ...text('exclude_from_breadcrumbs'), data_type: 'boolean' }, link],
          true,
        ),
      ],
      true,
    ),
    group('seo', [
      text('meta_title'),
      text('meta_description', { field_metadata: { multiline: true } }),
      { ...text('enable_search_indexing'), data_type: 'boolean' },
      text('canonical_url'),
    ]),
  ]);
  const template = contentType('page_template', 'Page template', [
    titleField(),
    text('layout'),
    group('breadcrumbs_theme', [text('theme'), text('background_color')]),
    ...ZONES.map(
      (zone): StackField => ({
        display_name: displayName(zone),
        uid: zone,
        data_type: 'reference',
        mandatory: false,
        multiple: true,
        reference_to: componentUids,
        field_metadata: { ref_multiple: true, ref_multiple_content_types: true },
      }),
    ),
  ]);
  const appConfig = contentType('application_configuration', 'Application configuration', [
    titleField(),
    group('globals', [{ ...text('dhfIsEnabled'), data_type: 'boolean' }]),
    group('navigation', [group('header', [text('title'), group('links', [text('title'), text('url')], true)])]),
  ]);
  const perComponent = componentUids.map((uid) => {
    const fields = inferFields(components.get(uid) ?? []).filter((f) => f.uid !== 'title');
    return contentType(uid, displayName(uid), [titleField(), ...fields]);
  });
  return [page, template, appConfig, ...perComponent];
}

/** The entries of one locale, keyed by content type and uid, in the stack's shape. */
export function stackEntries(content: LocaleContent): Map<string, Map<string, StackEntry>> {
  const out = new Map<string, Map<string, StackEntry>>();
  const add = (type: string, entry: StackEntry) => {
    if (!out.has(type)) out.set(type, new Map());
    out.get(type)?.set(entry.uid, entry);
  };
  for (const page of content.pages) {
    const { locale: _locale, ...fields } = page;
    add('page', { ...fields, uid: String(page.uid), title: String(page.title ?? page.uid) } as StackEntry);
  }
  for (const template of content.templates) {
    const entry: StackEntry = { uid: String(template.uid), title: String(template.title ?? template.uid) };
    for (const [key, value] of Object.entries(template)) {
      if (key === 'uid' || key === 'title') continue;
      if (!(ZONES as readonly string[]).includes(key)) {
        entry[key] = value;
        continue;
      }
      const refs: Json[] = [];
      for (const item of Array.isArray(value) ? value : []) {
        if (!isObject(item) || typeof item._content_type_uid !== 'string' || typeof item.uid !== 'string') continue;
        const { _content_type_uid: type, ...fields } = item;
        // Every entry of the stack has a title; a component that has none of its own is named by its uid.
        add(type, { ...fields, uid: item.uid, title: typeof item.title === 'string' ? item.title : item.uid });
        refs.push({ uid: item.uid, _content_type_uid: type });
      }
      entry[key] = refs;
    }
    add('page_template', entry);
  }
  if (content.appConfig) {
    add('application_configuration', {
      ...content.appConfig,
      uid: 'application-configuration',
      title: `Application configuration ${content.locale}`,
    });
  }
  return out;
}
