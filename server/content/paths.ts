import { resolve, sep } from 'node:path';

/**
 * The one door from request values to content-store files (architecture: "path-to-file resolver").
 * Every value is checked against its shape before a path is built, and the result must stay inside
 * the store: no traversal, no absolute paths, no reading outside CONTENT_DIR.
 */

const SHAPES = {
  locale: /^[a-z]{2}-[A-Z]{2}$/,
  contentType: /^[a-z][a-z0-9_]{0,63}$/,
  uid: /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/,
  uuid: /^\d{1,10}$/,
  previewHash: /^[A-Za-z0-9_-]{1,128}$/,
} as const;

export type ContentKey =
  | { kind: 'page'; locale: string; uuid: string }
  | { kind: 'entry'; locale: string; contentType: string; uid: string }
  | { kind: 'appConfig'; locale: string };

export function isValidKey(key: ContentKey): boolean {
  if (!SHAPES.locale.test(key.locale)) return false;
  if (key.kind === 'page') return SHAPES.uuid.test(key.uuid);
  // `pages` is the page type's folder: reading a page through the entry door would bypass its schema.
  if (key.kind === 'entry')
    return SHAPES.contentType.test(key.contentType) && key.contentType !== 'pages' && SHAPES.uid.test(key.uid);
  return true;
}

export function isValidPreviewHash(hash: string): boolean {
  return SHAPES.previewHash.test(hash);
}

/** The file for `key` under `root` (the store, or a draft overlay), or null when a value is not of its shape. */
export function contentFile(root: string, key: ContentKey): string | null {
  if (!isValidKey(key)) return null;
  const relative =
    key.kind === 'page'
      ? [key.locale, 'pages', `${key.uuid}.json`]
      : key.kind === 'entry'
        ? [key.locale, key.contentType, `${key.uid}.json`]
        : [key.locale, '_applicationConfiguration.json'];
  const base = resolve(root);
  const file = resolve(base, ...relative);
  return file.startsWith(base + sep) ? file : null;
}

/** The folder of a locale's page files, or null when the locale is not of its shape. */
export function pagesFolder(root: string, locale: string): string | null {
  return SHAPES.locale.test(locale) ? resolve(root, locale, 'pages') : null;
}

/** The page id a file in a pages folder stands for, or null for any other file. */
export function pageIdOfFile(name: string): string | null {
  const id = name.endsWith('.json') ? name.slice(0, -'.json'.length) : '';
  return SHAPES.uuid.test(id) ? id : null;
}

/** The draft overlay folder of a preview hash, or null when the hash is not of its shape. */
export function draftRoot(contentDir: string, hash: string): string | null {
  if (!isValidPreviewHash(hash)) return null;
  return resolve(contentDir, '_drafts', hash);
}
