import type { Problem } from '../errors.ts';

/** The shape of a page's comment threads as the workbench saves them. */
export function collabProblem(value: unknown): Problem | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { path: '$', message: 'Expected object' };
  for (const key of ['threads', 'comments']) {
    const list = (value as Record<string, unknown>)[key];
    if (!Array.isArray(list)) return { path: `$.${key}`, message: 'Expected array' };
    const bad = list.findIndex((item) => typeof item !== 'object' || item === null || Array.isArray(item));
    if (bad >= 0) return { path: `$.${key}[${bad}]`, message: 'Expected object' };
  }
  return null;
}
