import { type Html, html } from '../view/html.ts';
import type { FieldType } from './field-type.ts';
import type { Texts } from './text.ts';

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

type Label = keyof Texts | undefined;

/** Path and the name shown beside it (its text's key: text.ts, in the page's language). */
export const ICONS: Record<IconName, [string, Label]> = {
  singleline: ['M3 3h10M8 3v10', 'typeSingleLine'],
  multiline: [TEXT, 'typeMultiLine'],
  number: ['M6 2 4 14M12 2l-2 12M2 6h12M2 10h12', 'typeNumber'],
  html_rte: [RICH, 'typeRichText'],
  json_rte: [RICH, 'typeRichText'],
  markdown_rte: ['M2 12V4l3 4 3-4v8M12 4v8M10 10l2 2 2-2', 'typeMarkdown'],
  select: ['M2 4h12v8H2zM9 7l2 2 2-2', 'typeSelect'],
  url: [LINK, 'typeUrl'],
  link: [LINK, 'typeLink'],
  isodate: ['M2 4h12v10H2zM2 7h12M5 2v3M11 2v3', 'typeDate'],
  boolean: ['M2 2h12v12H2zM5 8l2 2 4-4', 'typeBoolean'],
  file: ['M2 3h12v10H2zM2 11l4-4 3 3 2-2 3 3', 'typeFile'],
  reference: ['M9 2h5v5M14 2 7 9M12 10v4H2V4h4', 'typeReference'],
  group: ['M2 2h12v5H2zM2 9h12v5H2z', 'typeGroup'],
  global_field: [`${CIRCLE}M2 8h12M8 2c-3 3-3 9 0 12M8 2c3 3 3 9 0 12`, 'typeGlobal'],
  modular_block: [BLOCKS, 'typeBlocks'],
  block: [BLOCKS, 'typeBlock'],
  custom_field: [`${CIRCLE}M8 5v6M5 8h6`, 'typeCustom'],
  taxonomy: ['M3 2v12M3 5h5M3 11h5M8 3h6v4H8zM8 9h6v4H8z', 'typeTaxonomy'],
  experience_container: [`${CIRCLE}M8 5a3 3 0 1 0 0 6 3 3 0 0 0 0-6z`, 'typeExperience'],
  loading: ['M8 2a6 6 0 1 0 6 6', 'typeLoading'],
  empty: ['M5 6a3 3 0 1 1 3 3v2M8 13v1', undefined],
};

/** The icon for a field type; `empty` for a field without one. */
export const iconFor = (name: string): [string, Label] => ICONS[name as IconName] ?? ICONS.empty;

/** The inline SVG for `name`, drawn in `currentColor`. */
export const icon = (name: string): Html =>
  html`<svg class="visual-builder__icon" viewBox="0 0 16 16" width="14" height="14" fill="none" stroke="currentColor" stroke-width="1.5" aria-hidden="true"><path d="${iconFor(name)[0]}"></path></svg>`;
