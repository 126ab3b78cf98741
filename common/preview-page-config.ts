/**
 * How a preview page hands the layer its configuration: a JSON block the server writes next to
 * the script tag (`<script type="application/json" id=…>`), because `script-src 'self'` forbids
 * inline scripts. Shared by the server, which writes it, and the standalone script, which reads it.
 */
export const PAGE_CONFIG_ID = 'vitrine-preview-config';

/**
 * What the server writes for the layer's `init()`: the part of the layer's `InitData` a page sets.
 * Declared here, not imported from sdk/, so shared code depends on nothing above it; the
 * standalone script passes it to `init()`, where the compiler checks it still fits.
 */
export interface PageInit {
  ssr: boolean;
  mode: 'preview' | 'builder';
  stackDetails: { apiKey?: string; environment?: string; branch?: string };
  clientUrlParams: { protocol: 'http' | 'https'; host: string; port: number };
  /** The editor origins this page may talk to. */
  editorOrigins: string[];
  /** Tells the editor the page may also be previewed in a new tab (live-preview-utils 4.3+). */
  enableLivePreviewOutsideIframe?: boolean;
}

export interface PageConfig {
  /** What the standalone script passes to `init`. */
  init: PageInit;
}
