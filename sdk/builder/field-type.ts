/**
 * Field types of the visual builder: derived from the schema the
 * editor answers to `get-field-schema`, then used for the cursor icon, `data-cslp-field-type` and
 * what editing the field means (in place, a modal, a replace dialog).
 */

/** The schema properties the builder reads; the editor may send more. */
export interface FieldSchema {
  data_type?: string;
  uid?: string;
  display_name?: string;
  enum?: unknown;
  extension_uid?: string;
  max_instance?: number;
  multiple?: boolean;
  non_localizable?: boolean;
  field_metadata?: {
    multiline?: boolean;
    allow_rich_text?: boolean;
    markdown?: boolean;
    allow_json_rte?: boolean;
    updateRestrict?: boolean;
    isUnlinkedVariant?: boolean;
    /** 4.x: whether the user may link an unlinked field to the variant. */
    canLinkVariant?: boolean;
    _default?: boolean;
  };
}

/** Every field type: the first nine are derived from the schema, the rest are their data type's own name. */
export const FIELD_TYPES = [
  'custom_field',
  'multiline',
  'html_rte',
  'markdown_rte',
  'select',
  'url',
  'singleline',
  'json_rte',
  'modular_block',
  'link',
  'isodate',
  'boolean',
  'block',
  'number',
  'reference',
  'group',
  'experience_container',
  'file',
  'global_field',
  'taxonomy',
] as const;

/** A field type, or `''` for a data type the builder does not know. */
export type FieldType = (typeof FIELD_TYPES)[number] | '';

/** Data types that are their own field type. */
const SAME_NAME: ReadonlySet<string> = new Set(FIELD_TYPES.slice(FIELD_TYPES.indexOf('link')));

/** The field-type derivation, in 3.2.5's order of checks; an unknown data type gives `''`. */
export function fieldType(schema: FieldSchema | undefined): FieldType {
  if (!schema) return '';
  if (schema.extension_uid) return 'custom_field';
  const meta = schema.field_metadata ?? {};
  switch (schema.data_type) {
    case 'text':
      if (meta.multiline) return 'multiline';
      if (meta.allow_rich_text) return 'html_rte';
      if (meta.markdown) return 'markdown_rte';
      if ('enum' in schema) return 'select';
      if (schema.uid === 'url' && meta._default) return 'url';
      return 'singleline';
    case 'json':
      return meta.allow_json_rte ? 'json_rte' : '';
    case 'blocks':
      return 'modular_block';
    default:
      return schema.data_type && SAME_NAME.has(schema.data_type) ? (schema.data_type as FieldType) : '';
  }
}

/** Edited in place with contenteditable. */
export const INLINE_EDITABLE: ReadonlySet<FieldType> = new Set(['singleline', 'multiline', 'number']);
/** Edited in the editor's field modal (toolbar Edit). */
export const MODAL_EDITED: ReadonlySet<FieldType> = new Set([
  'html_rte',
  'markdown_rte',
  'json_rte',
  'custom_field',
  'link',
  'isodate',
  'url',
]);
/** Replaced through the editor's asset or reference picker (toolbar Replace). */
export const REPLACEABLE: ReadonlySet<FieldType> = new Set(['reference', 'file']);
