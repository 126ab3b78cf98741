/**
 * The workbench's content model, free of the DOM: reading and writing entry fields by dotted path
 * (`body_components.0.headline`, the path of a `data-cslp` tag), the fields the form offers, and
 * the instance operations the visual builder asks for (add, move, delete).
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** One entry the page shows, as the draft API addresses it and as `data-cslp` tags name it. */
export interface EditedEntry {
  /** Draft API folder: `pages` or the content type uid. */
  type: string;
  /** Draft API id: the page's uuid, or the entry uid. */
  id: string;
  /** `data-cslp` content type and entry uid. */
  contentType: string;
  uid: string;
  locale: string;
  value: JsonObject;
}

export const cslpBase = (entry: Pick<EditedEntry, 'contentType' | 'uid' | 'locale'>) =>
  `${entry.contentType}.${entry.uid}.${entry.locale}`;

const segments = (path: string) => path.split('.').filter((s) => s !== '');

/** Own properties only: a path never reaches a prototype. */
const own = (value: Json | undefined, key: string): Json | undefined =>
  value !== null && typeof value === 'object' && Object.hasOwn(value, key)
    ? (value as Record<string, Json>)[key]
    : undefined;

export function getAt(value: Json, path: string): Json | undefined {
  let current: Json | undefined = value;
  for (const key of segments(path)) current = own(current, key);
  return current;
}

const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);

/** Sets an existing or new leaf; false when the parent is missing or the path is unsafe. */
export function setAt(value: Json, path: string, next: Json): boolean {
  const keys = segments(path);
  const last = keys.pop();
  if (last === undefined || [...keys, last].some((k) => FORBIDDEN.has(k))) return false;
  const parent = keys.length ? getAt(value, keys.join('.')) : value;
  if (parent === null || typeof parent !== 'object' || parent === undefined) return false;
  if (Array.isArray(parent)) {
    const index = Number(last);
    if (!Number.isInteger(index) || index < 0 || index > parent.length) return false;
    parent[index] = next;
  } else parent[last] = next;
  return true;
}

/** Keys that are identity, addressing or presentation codes rather than text an editor writes. */
const NOT_EDITED = new Set([
  'uid',
  '_content_type_uid',
  'uuid',
  'locale',
  'slug',
  'url',
  'url_type',
  'currency',
  'type',
  'code',
  'id',
  'anchor',
  'sectionId',
  'layout',
  'theme',
  'background',
  'background_color',
  'segment',
  'width',
  'height',
  'template',
  'url_taxonomy',
]);

export interface FormField {
  path: string;
  label: string;
  kind: 'text' | 'multiline' | 'number';
  value: string | number;
}

/** The text and number leaves of an entry an editor changes, in document order. */
export function editableFields(value: Json, prefix = '', depth = 0): FormField[] {
  if (depth > 5 || value === null || typeof value !== 'object') return [];
  const fields: FormField[] = [];
  const entries: [string, Json][] = Array.isArray(value)
    ? value.map((item, i) => [String(i), item])
    : Object.entries(value);
  for (const [key, child] of entries) {
    if (!Array.isArray(value) && NOT_EDITED.has(key)) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof child === 'string')
      fields.push({
        path,
        label: path,
        kind: child.length > 80 || child.includes('\n') ? 'multiline' : 'text',
        value: child,
      });
    else if (typeof child === 'number') fields.push({ path, label: path, kind: 'number', value: child });
    else fields.push(...editableFields(child, path, depth + 1));
  }
  return fields;
}

/** The array a builder instance path names (`body_components.1` → the body zone and index 1). */
function instanceOf(value: Json, path: string): { list: Json[]; index: number } | null {
  const keys = segments(path);
  const index = Number(keys.pop());
  const list = getAt(value, keys.join('.'));
  if (!Array.isArray(list) || !Number.isInteger(index) || index < 0 || index >= list.length) return null;
  return { list, index };
}

export function deleteInstance(value: Json, path: string): boolean {
  const found = instanceOf(value, path);
  if (!found) return false;
  found.list.splice(found.index, 1);
  return true;
}

export function moveInstance(value: Json, path: string, direction: 'previous' | 'next'): boolean {
  const found = instanceOf(value, path);
  if (!found) return false;
  const to = found.index + (direction === 'previous' ? -1 : 1);
  if (to < 0 || to >= found.list.length) return false;
  const [item] = found.list.splice(found.index, 1);
  found.list.splice(to, 0, item as Json);
  return true;
}

/**
 * Adds an instance at `index` of the list at `fieldPath`: a copy of its neighbour (a new uid when
 * it has one), since the form has no blank template for every block type.
 */
export function addInstance(value: Json, fieldPath: string, index: number): boolean {
  const list = getAt(value, fieldPath);
  if (!Array.isArray(list) || list.length === 0 || !Number.isInteger(index) || index < 0 || index > list.length)
    return false;
  const copy = structuredClone(list[Math.min(index, list.length - 1)] as Json);
  if (copy && typeof copy === 'object' && !Array.isArray(copy) && typeof copy.uid === 'string')
    copy.uid = `${copy.uid}-${Math.random().toString(36).slice(2, 8)}`;
  list.splice(index, 0, copy);
  return true;
}

/** A readable name for a tag's last field segment: `meta_description` → `Meta description`. */
export function displayName(cslp: string): string {
  const last =
    cslp
      .split('.')
      .filter((s) => !/^\d+$/.test(s))
      .pop() ?? cslp;
  return last
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .replace(/^./, (c) => c.toUpperCase());
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A word diff of two texts as the timeline's `diff-value` expects it: words only in `after` in
 * `<cs-compare class="cs-compare--added">`, words only in `before` in `cs-compare--removed`.
 */
export function diffHtml(before: string, after: string): string {
  const a = before.split(/(\s+)/).filter(Boolean);
  const b = after.split(/(\s+)/).filter(Boolean);
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      (lcs[i] as number[])[j] =
        a[i] === b[j]
          ? ((lcs[i + 1] as number[])[j + 1] as number) + 1
          : Math.max((lcs[i + 1] as number[])[j] as number, (lcs[i] as number[])[j + 1] as number);
  const out: string[] = [];
  const wrap = (kind: string, word: string) =>
    `<cs-compare class="cs-compare--${kind}">${escapeHtml(word)}</cs-compare>`;
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push(escapeHtml(a[i] as string));
      i++;
      j++;
    } else if (
      j < b.length &&
      (i >= a.length || ((lcs[i] as number[])[j + 1] as number) >= ((lcs[i + 1] as number[])[j] as number))
    ) {
      out.push(wrap('added', b[j] as string));
      j++;
    } else {
      out.push(wrap('removed', a[i] as string));
      i++;
    }
  }
  return out.join('');
}
