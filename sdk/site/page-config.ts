import { PAGE_CONFIG_ID, type PageConfig } from '../../common/preview-page-config.ts';

/** The page's configuration, or null when the block is missing or not JSON of that shape. */
export function readPageConfig(doc: Document): PageConfig | null {
  const text = doc.getElementById(PAGE_CONFIG_ID)?.textContent;
  if (!text) return null;
  try {
    const value = JSON.parse(text) as { init?: unknown } | null;
    return typeof value?.init === 'object' && value.init !== null ? (value as PageConfig) : null;
  } catch {
    return null;
  }
}
