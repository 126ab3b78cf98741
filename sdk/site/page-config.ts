import type { InitData } from '../config/types.ts';

/**
 * How a preview page hands the layer its configuration: a JSON block the server writes next to
 * the script tag (`<script type="application/json" id=…>`), because `script-src 'self'` forbids
 * inline scripts. Pure: the server and the standalone script both use it.
 */
export const PAGE_CONFIG_ID = 'vitrine-preview-config';

export interface PageConfig {
  /** What the standalone script passes to `init`. */
  init: InitData;
}

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
