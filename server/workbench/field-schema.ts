import { type TSchema, TypeGuard } from '@sinclair/typebox';
import { ComponentSchemas, PageSchema, TemplateSchema } from '../content/schemas.ts';

/**
 * The editor's field-schema map of a content type, derived from the schemas the store validates
 * with, so the workbench's forms and the store can never disagree about a field.
 */

export interface FieldSchema {
  uid: string;
  display_name: string;
  data_type: 'text' | 'number' | 'boolean' | 'group' | 'blocks' | 'json';
  multiple: boolean;
  mandatory: boolean;
  field_metadata: Record<string, unknown>;
  /** Select fields: the union's literals. */
  enum?: { advanced: boolean; choices: { value: unknown }[] };
}

const displayName = (uid: string) =>
  uid
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .replace(/^./, (c) => c.toUpperCase());

/** Fills `map` with one schema per field path (indexes left out, as the layer looks them up). */
function collectFields(map: Record<string, FieldSchema>, schema: TSchema, prefix: string, required: boolean): void {
  const uid = prefix.slice(prefix.lastIndexOf('.') + 1);
  const field = (data_type: FieldSchema['data_type'], multiple = false, metadata = {}): FieldSchema => ({
    uid,
    display_name: displayName(uid),
    data_type,
    multiple,
    mandatory: required,
    field_metadata: metadata,
  });
  if (TypeGuard.IsUnion(schema)) {
    const choices = schema.anyOf.filter(TypeGuard.IsLiteral).map((literal) => ({ value: literal.const }));
    if (prefix) map[prefix] = { ...field('text'), enum: { advanced: false, choices } };
    return;
  }
  if (TypeGuard.IsString(schema) || TypeGuard.IsLiteral(schema)) {
    if (prefix) map[prefix] = field('text', false, { multiline: false });
    return;
  }
  if (TypeGuard.IsNumber(schema) || TypeGuard.IsInteger(schema)) {
    if (prefix) map[prefix] = field('number');
    return;
  }
  if (TypeGuard.IsBoolean(schema)) {
    if (prefix) map[prefix] = field('boolean');
    return;
  }
  if (TypeGuard.IsArray(schema)) {
    const items = schema.items;
    if (prefix) map[prefix] = TypeGuard.IsObject(items) ? field('group', true) : { ...field('text'), multiple: true };
    if (TypeGuard.IsObject(items)) collectFields(map, items, prefix, required);
    return;
  }
  if (TypeGuard.IsObject(schema)) {
    if (prefix && !map[prefix]) map[prefix] = field('group');
    const own = new Set(schema.required ?? []);
    for (const [name, child] of Object.entries(schema.properties)) {
      collectFields(map, child, prefix ? `${prefix}.${name}` : name, own.has(name));
    }
    return;
  }
  if (prefix) map[prefix] = field('json');
}

/** `{fieldPath: schema}` for a content type: `pages`, a `*_template` (its zones as blocks) or a component. */
export function fieldSchemaMap(type: string): Record<string, FieldSchema> | null {
  const map: Record<string, FieldSchema> = {};
  if (type === 'pages' || type === 'page') {
    collectFields(map, PageSchema, '', true);
    return map;
  }
  if (type.endsWith('_template')) {
    collectFields(map, TemplateSchema, '', true);
    for (const zone of ['header_components', 'body_components', 'footer_components']) {
      map[zone] = { ...(map[zone] as FieldSchema), data_type: 'blocks', multiple: true };
      for (const component of Object.values(ComponentSchemas)) collectFields(map, component, zone, false);
      map[zone] = { ...(map[zone] as FieldSchema), data_type: 'blocks', multiple: true };
    }
    return map;
  }
  const schema = ComponentSchemas[type];
  if (!schema) return null;
  collectFields(map, schema, '', true);
  return map;
}
