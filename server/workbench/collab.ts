import { resolve } from 'node:path';
import { draftRoot, isValidKey } from '../content/paths.ts';

// One JSON file per page, `{CONTENT_DIR}/_drafts/_collab/{locale}/{uuid}.json`

/** Not a draft overlay: the store reads overlays at `{locale}/{folder}/{id}.json`, one level deeper. */
export const COLLAB_HASH = '_collab';

export function collabFile(contentDir: string, locale: string, uuid: string): string | null {
  const root = draftRoot(contentDir, COLLAB_HASH);
  if (!root || !isValidKey({ kind: 'page', locale, uuid })) return null;
  return resolve(root, locale, `${uuid}.json`);
}

export function collabProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return '$: Expected object';
  for (const key of ['threads', 'comments']) {
    const list = (value as Record<string, unknown>)[key];
    if (!Array.isArray(list)) return `$.${key}: Expected array`;
    const bad = list.findIndex((item) => typeof item !== 'object' || item === null || Array.isArray(item));
    if (bad >= 0) return `$.${key}[${bad}]: Expected object`;
  }
  return null;
}
