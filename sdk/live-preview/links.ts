import type { PageWindow } from '../dom.ts';
import { LAYER_ERRORS } from '../errors.ts';
import { logger } from '../logger.ts';

/**
 * Link decoration: a same-origin link clicked inside the editor carries the
 * preview parameters, so the next page opens in preview too. The hash is the latest one the editor
 * sent; the entry parameters are the current page's, added only as a pair, and under Timeline its
 * `preview_timestamp` goes along, so the next page shows the same moment (4.4.1,
 * `addLivePreviewQueryTags`). A link that already has a hash, or a page without one, is left alone.
 */
export function decorateLink(href: string, page: URL, hash: string): string {
  const url = new URL(href, page);
  if (url.origin !== page.origin || url.searchParams.has('live_preview') || !hash) return href;
  url.searchParams.set('live_preview', hash);
  const contentType = page.searchParams.get('content_type_uid');
  const entry = page.searchParams.get('entry_uid');
  if (contentType && entry) {
    url.searchParams.set('content_type_uid', contentType);
    url.searchParams.set('entry_uid', entry);
  }
  const timestamp = page.searchParams.get('preview_timestamp');
  if (timestamp) url.searchParams.set('preview_timestamp', timestamp);
  return url.href;
}

/** Rewrites links as they are clicked; on a bad URL the link is kept as it was. */
export function decorateLinkClicks(win: PageWindow, hash: () => string): () => void {
  const onClick = (event: MouseEvent) => {
    const target = event.target;
    const link = target instanceof win.Element ? target.closest('a[href]') : null;
    if (!(link instanceof win.HTMLAnchorElement)) return;
    try {
      const decorated = decorateLink(link.href, new URL(win.location.href), hash());
      if (decorated !== link.href) link.href = decorated;
    } catch (error) {
      logger.error(LAYER_ERRORS.LINK_DECORATION_FAILED, error);
    }
  };
  win.addEventListener('click', onClick);
  return () => win.removeEventListener('click', onClick);
}
