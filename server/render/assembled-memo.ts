import { LRUCache } from 'lru-cache';
import type { Translate } from '../../client/i18n/messages.ts';
import type { PageModel } from '../../client/page/model.ts';
import type { PageEntry, TemplateEntry } from '../../common/content.ts';

/** A published page loaded and assembled: everything but its React tree, which each render builds anew. */
export interface AssembledPage {
  model: PageModel;
  page: PageEntry;
  template: TemplateEntry | null;
  t: Translate;
}

/**
 * Assembled published pages, kept until content changes, like the page links: loading
 * and assembling is the same work for every request of a page, while rendering stays per request
 * (the HTML cache is the other level, and may be off). Preview, the live route and pages built
 * while a read failed are never kept (the caller decides). The model is not changed after assembly:
 * render state lives in each render's context.
 */
export class AssembledPageMemo {
  #memo: LRUCache<string, AssembledPage>;

  constructor(options: { maxEntries: number; ttlMs: number }) {
    this.#memo = new LRUCache({ max: options.maxEntries, ttl: options.ttlMs });
  }

  /** Everything buildPage reads from a published request besides content: storefront, locale, route, path. */
  static key(host: string, locale: string, route: string, prefix: string | undefined, rawPath: string): string {
    return [host, locale, route, prefix ?? '', rawPath].join('\u0000');
  }

  get(key: string): AssembledPage | undefined {
    return this.#memo.get(key);
  }

  set(key: string, page: AssembledPage): void {
    this.#memo.set(key, page);
  }

  clear(): void {
    this.#memo.clear();
  }
}
