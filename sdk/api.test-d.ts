import ContentstackLivePreview, { type InitData } from './index.ts';

/**
 * Type test of the public API: `npx tsc --noEmit` fails when a line marked
 * `@ts-expect-error` compiles, or a correct call stops compiling. Never run, only type-checked.
 */

export const valid: InitData = {
  ssr: false,
  mode: 'builder',
  editButton: {
    enable: true,
    exclude: ['insideLivePreviewPortal'],
    position: 'top-center',
    includeByQueryParameter: false,
  },
  editInVisualBuilderButton: { enable: true, position: 'top-left' },
  stackDetails: { apiKey: 'blt1', environment: 'preview', branch: 'main', locale: 'en-us' },
  clientUrlParams: { protocol: 'https', host: 'app.contentstack.com', port: 443 },
  stackSdk: { live_preview: { hash: 'h' }, environment: 'preview', headers: { api_key: 'blt1' } },
  editorOrigins: ['https://app.contentstack.com'],
};

export async function misuse(): Promise<void> {
  await ContentstackLivePreview.init(valid);
  // @ts-expect-error the mode is 'preview' or 'builder'
  await ContentstackLivePreview.init({ mode: 'edit' });
  // @ts-expect-error not an edit button position
  await ContentstackLivePreview.init({ editButton: { position: 'middle' } });
  // @ts-expect-error exclude takes the two portal rules only
  await ContentstackLivePreview.init({ editButton: { exclude: ['everywhere'] } });
  // @ts-expect-error a typo of a config key
  await ContentstackLivePreview.init({ edtButton: { enable: true } });
  // @ts-expect-error the protocol is http or https
  await ContentstackLivePreview.init({ clientUrlParams: { protocol: 'ftp' } });
  // @ts-expect-error the hash is read-only
  ContentstackLivePreview.hash = 'other';
  // @ts-expect-error subscribers are called without arguments
  ContentstackLivePreview.onEntryChange((entry: string) => entry.length);
  const id: string = ContentstackLivePreview.onLiveEdit(() => {});
  ContentstackLivePreview.unsubscribeOnEntryChange(id);
  // @ts-expect-error unsubscribe takes an id or a callback
  ContentstackLivePreview.unsubscribeOnEntryChange(42);
  const version: string = ContentstackLivePreview.getSdkVersion();
  const mode: 1 | 2 = ContentstackLivePreview.config.mode;
  void [version, mode];
}
