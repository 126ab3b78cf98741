import type { IncomingHttpHeaders } from 'node:http';

/**
 * Whether a page answer carries the `Speculation-Rules` header. Not for a visitor who asked to
 * save data (`Save-Data: on`) or whose browser reports a 2g-class connection (`ECT: slow-2g` or
 * `2g`): the same rule the script fallback applies (islands/prefetch.ts), so Chromium, which reads
 * the header, keeps it too. 3g still prefetches on intent, where it saves a slow round trip
 * (docs/decisions/0154-no-speculation-rules-on-save-data-or-2g.md).
 */
export const SLOW_CONNECTIONS: ReadonlySet<string> = new Set(['slow-2g', '2g']);

/** Asked for on every page answer, so a browser sends them on the visitor's next navigation. */
export const ACCEPT_CH = 'ECT, Save-Data';

/** What the answer depends on: a shared cache must keep one copy per hint value. */
export const SPECULATION_VARY = 'ECT, Save-Data';

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? '';

export function speculationAllowed(headers: IncomingHttpHeaders): boolean {
  if (/^\s*on\b/i.test(one(headers['save-data']))) return false;
  return !SLOW_CONNECTIONS.has(one(headers.ect).trim().toLowerCase());
}
