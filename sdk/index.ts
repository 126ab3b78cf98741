import { createLivePreview } from './api.ts';

/**
 * The ES module entry: the live-preview layer for any site. The HTML sanitiser is
 * a separate chunk, fetched the first time the editor sends HTML; the visual builder is another,
 * fetched only in a builder window.
 */
const ContentstackLivePreview = createLivePreview({
  sanitizer: () => import('./sanitize.ts').then((chunk) => chunk.sanitizeHtml),
  builder: () => import('./builder/builder.ts'),
});

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
