/**
 * The `data-cslp` field tag: `[v2:]ct.entry[_variant].locale[.path]`.
 * Parsing follows 3.2.5 exactly, quirks included, because the result travels in messages the
 * editor reads (`scroll`, later `fieldMetadata`): a segment is an index when `+segment` is finite
 * (so an empty segment is index 0), text after a second `:` is dropped, and a v1 tag holding a `:`
 * loses everything from it. A tag without content type, entry and locale is not a tag, nor is a v2
 * tag without `entry_variant` (4.4.1's `isValidCslp`): null, and every caller skips it silently.
 */

export interface CslpData {
  content_type_uid: string;
  entry_uid: string;
  locale: string;
  /** The v2 variant uid. */
  variant: string | undefined;
  /** The attribute text as written, prefix included. */
  cslpValue: string;
  /** The path without index segments: where the schema is. */
  fieldPath: string;
  /** The path with inner indexes, a trailing index removed: where the value is. */
  fieldPathWithIndex: string;
  multipleFieldMetadata: {
    /** The last index segment anywhere in the path, -1 when there is none. */
    index: number;
    parentDetails: { parentPath: string; parentCslpValue: string } | null;
  };
  /** The whole path, trailing index included. */
  instance: { fieldPathWithIndex: string };
}

const isIndex = (segment: string) => Number.isFinite(+segment);

export function parseCslp(value: string): CslpData | null {
  const [head = '', second = ''] = value.split(':');
  // A first piece of more than two characters is the body of a v1 tag, not a version.
  const version = head.length > 2 ? '' : head;
  const body = head.length > 2 ? head : second;
  const [contentType, entryPiece, locale, ...path] = body.split('.');
  if (!contentType || !entryPiece || !locale) return null;
  const pair = version === 'v2' ? entryPiece.split('_') : [entryPiece];
  // 4.3+ (isValidCslp): a v2 tag names an entry and a variant, every `_` piece non-empty.
  if (version === 'v2' && (pair.length < 2 || pair.some((piece) => !piece))) return null;
  const [entry = '', variant] = pair;
  if (!entry) return null;

  const last = path.findLastIndex(isIndex);
  const parentPath = path.slice(0, Math.max(last, 0)).join('.');
  const withIndex = last === path.length - 1 && last !== -1 ? path.slice(0, -1) : path;
  return {
    content_type_uid: contentType,
    entry_uid: entry,
    locale,
    variant,
    cslpValue: value,
    fieldPath: path.filter((segment) => !isIndex(segment)).join('.'),
    fieldPathWithIndex: withIndex.join('.'),
    multipleFieldMetadata: {
      index: last === -1 ? -1 : +(path[last] as string),
      parentDetails:
        last === -1
          ? null
          : { parentPath, parentCslpValue: [contentType, entry, locale, ...path.slice(0, last)].join('.') },
    },
    instance: { fieldPathWithIndex: path.join('.') },
  };
}
