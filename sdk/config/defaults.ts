import { MODE } from '../protocol.ts';
import type { Config, InitData } from './types.ts';

/** The configuration before any `init`: the base every init merges into. */
export function baseConfig(): Config {
  return {
    ...sharedDefaults(),
    hash: '',
    mode: MODE.preview,
    windowType: 'independent',
    stackDetails: {
      apiKey: '',
      environment: '',
      contentTypeUid: '',
      entryUid: '',
      locale: 'en-us',
      branch: 'main',
      masterLocale: 'en-us',
    },
    clientUrlParams: {
      protocol: 'https',
      host: 'app.contentstack.com',
      port: 443,
      url: 'https://app.contentstack.com:443',
    },
    stackSdk: { live_preview: {}, headers: { api_key: '' }, environment: '' },
    onChange: () => {},
    elements: { highlightedElement: null },
    collab: {
      enable: false,
      fromShare: false,
      pauseFeedback: false,
      isFeedbackMode: false,
      inviteMetadata: { currentUser: { email: '', uid: '' }, users: [], inviteUid: '' },
      payload: [],
    },
    editorOrigins: [],
    messages: {},
    enableLivePreviewOutsideIframe: undefined,
  };
}

/**
 * What `init()` without an argument applies. Its empty branch is why
 * `init()` gives links without `branch`, while `init({...})` keeps the base `main`.
 */
export function defaultInit(): InitData {
  return {
    ...sharedDefaults(),
    mode: 'preview',
    stackDetails: { apiKey: '', environment: '', branch: '' },
    clientUrlParams: { protocol: 'https', host: 'app.contentstack.com', port: 443 },
    stackSdk: { live_preview: {}, environment: '' },
  };
}

type SharedKey =
  | 'ssr'
  | 'enable'
  | 'debug'
  | 'cleanCslpOnProduction'
  | 'editButton'
  | 'editInVisualBuilderButton'
  | 'runScriptsOnUpdate';

/** The flags and buttons the base and `init()` agree on; fresh objects on every call, as callers mutate them. */
function sharedDefaults() {
  return {
    ssr: true,
    enable: true,
    debug: false,
    cleanCslpOnProduction: true,
    editButton: { enable: true, exclude: [], position: 'top', includeByQueryParameter: true },
    editInVisualBuilderButton: { enable: true, position: 'bottom-right' },
    runScriptsOnUpdate: false,
  } satisfies Pick<Config, SharedKey> & InitData;
}
