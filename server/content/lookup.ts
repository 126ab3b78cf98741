import type { ContentService } from './service.ts';

const PAGE_ID = /^\d{1,10}$/;

/**
 * The page id the editor means by `entry_uid`: page ids are used as they are, a CMS entry uid
 * (`page-4711`, `blt…`) is looked up among the locale's pages. null when no page has it.
 */
export async function pageIdForEntry(content: ContentService, locale: string, entry: string): Promise<string | null> {
  if (PAGE_ID.test(entry)) return entry;
  if (!content.listPages) return null;
  for (const id of await content.listPages(locale)) {
    const page = await content.getPage(id, locale).catch(() => null);
    if (page?.uid === entry) return id;
  }
  return null;
}
