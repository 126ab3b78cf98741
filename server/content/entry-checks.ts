import type { Problem } from '../errors.ts';
import { ComponentSchemas, firstProblem, PageSchema, templateProblem } from './schemas.ts';

/**
 * The checks an entry written by an editor passes before it is stored (draft API, workbench
 * publish): the schema of its type, then the identity its path names. Published content read by
 * the store or the content-service client is read tolerantly instead (tolerant.ts).
 */

/** `pages`, a template type (`…_template`) or a component type; unknown types pass, as they render nothing. */
export function problemOf(type: string, value: unknown): Problem | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { path: '$', message: 'Expected object' };
  if (type === 'pages') return firstProblem(PageSchema, value);
  if (type.endsWith('_template')) return templateProblem(value);
  const schema = ComponentSchemas[type];
  return schema ? firstProblem(schema, value) : null;
}

/** The entry must be the one its path names, or the store would serve it under another id. */
export function identityProblem(
  type: string,
  id: string,
  locale: string,
  value: Record<string, unknown>,
): Problem | null {
  if (type === 'pages') {
    if (value.uuid !== id) return { path: '$.uuid', message: `Expected ${id}, the id of the path` };
    if (value.locale !== locale) return { path: '$.locale', message: `Expected ${locale}, the locale of the path` };
    return null;
  }
  return value.uid === id ? null : { path: '$.uid', message: `Expected ${id}, the id of the path` };
}

/** Both checks, schema first. */
export function entryProblem(type: string, id: string, locale: string, value: unknown): Problem | null {
  return problemOf(type, value) ?? identityProblem(type, id, locale, value as Record<string, unknown>);
}
