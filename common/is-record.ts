/**
 * A plain object whose fields can be read one by one: the first check on anything read from outside
 * (content files, upstream answers, messages from another window). Arrays and null are not records.
 */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
