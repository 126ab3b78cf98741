import t from 'tap';
import { type FieldSchema, type FieldType, fieldType } from './field-type.ts';

const cases: [string, FieldSchema | undefined, FieldType][] = [
  ['no schema', undefined, ''],
  ['an extension wins over the data type', { data_type: 'text', extension_uid: 'ext1' }, 'custom_field'],
  ['plain text', { data_type: 'text', uid: 'title' }, 'singleline'],
  ['text with multiline', { data_type: 'text', field_metadata: { multiline: true } }, 'multiline'],
  ['text with allow_rich_text', { data_type: 'text', field_metadata: { allow_rich_text: true } }, 'html_rte'],
  ['text with markdown', { data_type: 'text', field_metadata: { markdown: true } }, 'markdown_rte'],
  ['text with an enum', { data_type: 'text', enum: { choices: [] } }, 'select'],
  ['text uid url with _default', { data_type: 'text', uid: 'url', field_metadata: { _default: true } }, 'url'],
  ['text uid url without _default', { data_type: 'text', uid: 'url' }, 'singleline'],
  [
    'text uid other with _default',
    { data_type: 'text', uid: 'slug', field_metadata: { _default: true } },
    'singleline',
  ],
  [
    'multiline checked before rich text',
    { data_type: 'text', field_metadata: { multiline: true, allow_rich_text: true } },
    'multiline',
  ],
  ['json with allow_json_rte', { data_type: 'json', field_metadata: { allow_json_rte: true } }, 'json_rte'],
  ['json without allow_json_rte', { data_type: 'json' }, ''],
  ['blocks', { data_type: 'blocks' }, 'modular_block'],
  ['link', { data_type: 'link' }, 'link'],
  ['isodate', { data_type: 'isodate' }, 'isodate'],
  ['boolean', { data_type: 'boolean' }, 'boolean'],
  ['block', { data_type: 'block' }, 'block'],
  ['number', { data_type: 'number' }, 'number'],
  ['reference', { data_type: 'reference' }, 'reference'],
  ['group', { data_type: 'group' }, 'group'],
  ['experience_container', { data_type: 'experience_container' }, 'experience_container'],
  ['file', { data_type: 'file' }, 'file'],
  ['taxonomy', { data_type: 'taxonomy' }, 'taxonomy'],
  ['global_field', { data_type: 'global_field' }, 'global_field'],
  ['an unknown data type', { data_type: 'mystery' }, ''],
];

t.test('field type derivation for every data_type and metadata flag', async (t) => {
  for (const [name, schema, expected] of cases) t.equal(fieldType(schema), expected, name);
});
