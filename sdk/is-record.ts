/** A plain object whose fields can be read one by one: the first check on every payload from another window. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
