import type { InitData } from '../sdk/config/types.ts';

/**
 * How a preview page hands the layer its configuration: a JSON block the server writes next to
 * the script tag (`<script type="application/json" id=…>`), because `script-src 'self'` forbids
 * inline scripts. Shared by the server, which writes it, and the standalone script, which reads it.
 */
export const PAGE_CONFIG_ID = 'vitrine-preview-config';

export interface PageConfig {
  /** What the standalone script passes to `init`. */
  init: InitData;
}
