import type { PageWindow } from '../dom.ts';
import { LAYER_ERRORS } from '../errors.ts';
import { logger } from '../logger.ts';

/** Turns a fetched page into the live one (site/morph.ts, a lazy chunk). */
export type MorphPage = (win: PageWindow, html: string) => void;

/**
 * The site's entry-change subscriber: fetches the same URL with the editor's latest hash, so the
 * server renders the drafts, and morphs the page into it. A newer change aborts the fetch of an
 * older one, so the page never goes back to stale content.
 */
export function createRefresh(win: PageWindow, hash: () => string, morph: () => Promise<MorphPage>): () => void {
  let current: AbortController | undefined;
  return () => {
    current?.abort();
    const controller = new AbortController();
    current = controller;
    const url = new URL(win.location.href);
    url.searchParams.set('live_preview', hash());
    const page = win
      .fetch(url, { signal: controller.signal, cache: 'no-store', headers: { accept: 'text/html' } })
      .then((response) => {
        if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}`);
        return response.text();
      });
    Promise.all([page, morph()])
      .then(([html, morphPage]) => {
        if (!controller.signal.aborted) morphPage(win, html);
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) logger.error(LAYER_ERRORS.PAGE_REFRESH_FAILED, error);
      });
  };
}
