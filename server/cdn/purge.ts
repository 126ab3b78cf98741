import type { ContentChanges } from '../content/changes.ts';
import { changeTags } from '../render/cache-tags.ts';

export interface PurgeOptions {
  /** CDN_PURGE_URL: receives `POST {"tags": [...]}` for every change announced on this instance. */
  url: string;
  /** CDN_PURGE_TOKEN, sent as a bearer token when set. */
  token?: string;
  /** Every storefront's host: a change that names no entry purges them all. */
  hosts: readonly string[];
  log: { warn(details: object, message: string): void; info(details: object, message: string): void };
  timeoutMs?: number;
}

/**
 * The purge hook: every content change announced here (not one relayed from another instance,
 * which purged already) becomes one POST of the tags it affects, so the CDN drops exactly the
 * pages built from the changed entries. A failed purge is logged; the CDN then refreshes by TTL.
 */
export function purgeOnChange(changes: ContentChanges, options: PurgeOptions): void {
  changes.subscribe((change) => {
    if (change.origin === 'remote') return;
    const tags = changeTags(change, options.hosts);
    if (tags.length === 0) return;
    void fetch(options.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      },
      body: JSON.stringify({ tags }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
    }).then(
      async (response) => {
        await response.arrayBuffer();
        if (response.ok) options.log.info({ tags: tags.length, origin: change.origin }, 'CDN purge requested');
        else options.log.warn({ status: response.status, tags: tags.length }, 'CDN purge refused');
      },
      (error: unknown) =>
        options.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'CDN purge failed'),
    );
  });
}
