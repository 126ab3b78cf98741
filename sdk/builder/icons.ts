import { type Html, html } from '../view/html.ts';
import type { FieldType } from './field-type.ts';

/**
 * Field-type icons for the custom cursor and the toolbar label: one stroked
 * 16 × 16 path each, drawn in `currentColor` so the disabled grey of their container greys them
 * too. Paths, not an icon font: nothing loads from elsewhere, and shared shapes keep the chunk small.
 */

export type IconName = Exclude<FieldType, ''> | 'loading' | 'empty';

const TEXT = 'M2 4h12M2 8h12M2 12h8';
const RICH = 'M3 13l1-4 7-7 3 3-7 7zM10 3l3 3';
const LINK = 'M7 9a3 3 0 0 0 4 0l2-2a3 3 0 0 0-4-4L8 4M9 7a3 3 0 0 0-4 0L3 9a3 3 0 0 0 4 4l1-1';
const BLOCKS = 'M2 2h5v5H2zM9 2h5v5H9zM2 9h5v5H2zM9 9h5v5H9z';
const CIRCLE = 'M8 2a6 6 0 1 0 0 12A6 6 0 0 0 8 2z';

/** Path and the name shown beside it. */
export const ICONS: Record<IconName, [string, string]> = {
  singleline: ['M3 3h10M8 3v10', 'Single line'],
  multiline: [TEXT, 'Multi line'],
  number: ['M6 2 4 14M12 2l-2 12M2 6h12M2 10h12', 'Number'],
  html_rte: [RICH, 'Rich text'],
  json_rte: [RICH, 'Rich text'],
  markdown_rte: ['M2 12V4l3 4 3-4v8M12 4v8M10 10l2 2 2-2', 'Markdown'],
  select: ['M2 4h12v8H2zM9 7l2 2 2-2', 'Select'],
  url: [LINK, 'URL'],
  link: [LINK, 'Link'],
  isodate: ['M2 4h12v10H2zM2 7h12M5 2v3M11 2v3', 'Date'],
  boolean: ['M2 2h12v12H2zM5 8l2 2 4-4', 'Boolean'],
  file: ['M2 3h12v10H2zM2 11l4-4 3 3 2-2 3 3', 'File'],
  reference: ['M9 2h5v5M14 2 7 9M12 10v4H2V4h4', 'Reference'],
  group: ['M2 2h12v5H2zM2 9h12v5H2z', 'Group'],
  global_field: [`${CIRCLE}M2 8h12M8 2c-3 3-3 9 0 12M8 2c3 3 3 9 0 12`, 'Global'],
  modular_block: [BLOCKS, 'Blocks'],
  block: [BLOCKS, 'Block'],
  custom_field: [`${CIRCLE}M8 5v6M5 8h6`, 'Custom'],
  taxonomy: ['M3 2v12M3 5h5M3 11h5M8 3h6v4H8zM8 9h6v4H8z', 'Taxonomy'],
  experience_container: [`${CIRCLE}M8 5a3 3 0 1 0 0 6 3 3 0 0 0 0-6z`, 'Experience'],
  loading: ['M8 2a6 6 0 1 0 6 6', '…'],
  empty: ['M5 6a3 3 0 1 1 3 3v2M8 13v1', ''],
};

/** The icon for a field type; `empty` for a field without one. */
export const iconFor = (name: string): [string, string] => ICONS[name as IconName] ?? ICONS.empty;

/** The inline SVG for `name`, drawn in `currentColor`. */
export const icon = (name: string): Html =>
  html`<svg class="visual-builder__icon" viewBox="0 0 16 16" width="14" height="14" fill="none" stroke="currentColor" stroke-width="1.5" aria-hidden="true"><path d="${iconFor(name)[0]}"></path></svg>`;
