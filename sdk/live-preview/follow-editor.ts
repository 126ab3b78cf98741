import type { Config } from '../config/types.ts';
import type { PageWindow } from '../dom.ts';
import type { ClientDataSend } from '../protocol.ts';

/**
 * Live Preview in a new tab (4.x, `useOnEntryUpdatePostMessageEvent`): no editor reloads this page,
 * so on `client-data-send` it follows the editor itself. `hash_change` puts the new hash in the
 * address without a reload; `url_change` goes where the editor went, on this site only (4.4.1 goes
 * anywhere, `javascript:` included); without an event type a server-rendered page reloads, taking
 * on the preview parameters it lacks.
 */
export function followEditor(win: PageWindow, config: Config, change: ClientDataSend): void {
  const here = new URL(win.location.href);
  const query = here.searchParams;
  if (change.eventType === 'hash_change') {
    query.set('live_preview', change.hash);
    win.history.pushState({}, '', here.href);
  } else if (change.eventType === 'url_change') {
    const next = change.url && URL.canParse(change.url, here) ? new URL(change.url, here) : null;
    if (next?.origin === here.origin) win.location.href = next.href;
  } else if (config.ssr) {
    if (query.get('live_preview') && query.get('content_type_uid') && query.get('entry_uid')) {
      win.location.reload();
      return;
    }
    query.set('live_preview', change.hash);
    const contentType = change.contentTypeUid || config.stackDetails.contentTypeUid;
    const entry = change.entryUid || config.stackDetails.entryUid;
    if (contentType) query.set('content_type_uid', contentType);
    if (entry) query.set('entry_uid', entry);
    win.location.href = here.href;
  }
}
