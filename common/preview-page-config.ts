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
  /** The builder's texts in the page's language (`preview.builder.{key}` in locales/). */
  messages?: Partial<Record<PreviewTextKey, string>>;
  /** Tells the editor the page may also be previewed in a new tab (live-preview-utils 4.3+). */
  enableLivePreviewOutsideIframe?: boolean;
}

/** The builder's texts a page brings (sdk/builder/text.ts holds their English). */
export const PREVIEW_TEXT_KEYS = [
  'referencedFrom',
  'apps',
  'moreApps',
  'searchApps',
  'noApps',
  'moveUp',
  'moveDown',
  'moveLeft',
  'moveRight',
  'edit',
  'replace',
  'form',
  'viewComments',
  'addComment',
  'delete',
  'entryUpdate',
  'readOnly',
  'localizedEntry',
  'notLocalized',
  'unlinkedVariant',
  'audienceMode',
  'variantMismatch',
  'notInVariant',
  'unlinkedCanLink',
  'unlinkedCannotLink',
  'stageLocked',
  'stageRoleAndStage',
  'stageRequest',
  'stagePending',
  'requestAccess',
  'linkVariant',
  'variantRevert',
  'revertBase',
  'revertAdded',
  'restoreDeleted',
  'resetCustomizations',
  'restoreSorted',
  'invalidTag',
  'invalidTagDetail',
  'error',
  'addSection',
  'maxInstances',
  'noInstances',
  'startEditing',
  'typeSingleLine',
  'typeMultiLine',
  'typeNumber',
  'typeRichText',
  'typeMarkdown',
  'typeSelect',
  'typeUrl',
  'typeLink',
  'typeDate',
  'typeBoolean',
  'typeFile',
  'typeReference',
  'typeGroup',
  'typeGlobal',
  'typeBlocks',
  'typeBlock',
  'typeCustom',
  'typeTaxonomy',
  'typeExperience',
  'typeLoading',
] as const;
export type PreviewTextKey = (typeof PREVIEW_TEXT_KEYS)[number];
/** The arguments the layer fills in, formatted on the server as themselves (`{field}`). */
export const PREVIEW_TEXT_ARGS = {
  field: '{field}',
  contentType: '{contentType}',
  stage: '{stage}',
  max: '{max}',
  name: '{name}',
};

export interface PageConfig {
  /** What the standalone script passes to `init`. */
  init: PageInit;
}
