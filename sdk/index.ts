import { createLivePreview } from './api.ts';
import { esmLoaders } from './esm-loaders.ts';

/**
 * The ES module entry: the live-preview layer for any site. The HTML sanitiser, the visual
 * builder and collaboration are separate chunks, each fetched when first needed (esm-loaders.ts).
 */
const ContentstackLivePreview = createLivePreview(esmLoaders);

export default ContentstackLivePreview;
export type { LivePreview } from './api.ts';
export type {
  CornerPosition,
  EditButtonPosition,
  ExcludeRule,
  ExportedConfig,
  InitData,
  StackSdk,
} from './config/types.ts';
export type { CslpData } from './cslp/parse.ts';
export type { EntryChangeCallback } from './live-preview/subscribers.ts';
