import type { ModeNumber, WindowType } from '../protocol.ts';

/** Configuration of the layer. */

export type EditButtonPosition =
  | 'top'
  | 'bottom'
  | 'left'
  | 'right'
  | 'top-left'
  | 'top-right'
  | 'top-center'
  | 'bottom-left'
  | 'bottom-right'
  | 'bottom-center';

export type ExcludeRule = 'insideLivePreviewPortal' | 'outsideLivePreviewPortal';
export type CornerPosition = 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right';

/** The `live_preview` block of a delivery SDK stack, as far as the layer reads it. */
export interface StackSdkLivePreview {
  enable?: boolean;
  ssr?: boolean;
  debug?: boolean;
  cleanCslpOnProduction?: boolean;
  runScriptsOnUpdate?: boolean;
  editButton?: { enable?: boolean };
  exclude?: ExcludeRule[];
  position?: string;
  includeByQueryParameter?: boolean;
  editInVisualBuilderButton?: { enable?: boolean };
  clientUrlParams?: ClientUrlParamsInput;
  [key: string]: unknown;
}

/** A Contentstack delivery SDK stack, or a plain object of the same shape. */
export interface StackSdk {
  live_preview?: StackSdkLivePreview;
  environment?: string;
  branch?: string;
  headers?: { api_key?: string; branch?: string; [key: string]: unknown };
  [key: string]: unknown;
}

export interface ClientUrlParamsInput {
  protocol?: 'http' | 'https';
  host?: string;
  port?: number | string;
}

/** What `init()` accepts; every key optional. */
export interface InitData {
  ssr?: boolean;
  enable?: boolean;
  debug?: boolean;
  cleanCslpOnProduction?: boolean;
  runScriptsOnUpdate?: boolean;
  mode?: 'preview' | 'builder';
  editButton?: {
    enable?: boolean;
    exclude?: ExcludeRule[];
    position?: EditButtonPosition;
    includeByQueryParameter?: boolean;
  };
  editInVisualBuilderButton?: { enable?: boolean; position?: CornerPosition };
  stackDetails?: { apiKey?: string; environment?: string; branch?: string; locale?: string };
  clientUrlParams?: ClientUrlParamsInput;
  stackSdk?: StackSdk;
  /**
   * Origins the editor may have: messages from any other origin are ignored and nothing is posted
   * elsewhere. Not in 3.2.5; defaults to the origin of `clientUrlParams`.
   */
  editorOrigins?: string[];
  /** The builder's 4.x texts in the page's language, by key (builder/text.ts); English without. Not in 4.4.1. */
  messages?: Record<string, string>;
  /** 4.3: tells the editor the page may be previewed in a new tab; sent in `init` when set. */
  enableLivePreviewOutsideIframe?: boolean | undefined;
}

export interface CollabConfig {
  enable: boolean;
  fromShare: boolean;
  pauseFeedback: boolean;
  isFeedbackMode: boolean;
  inviteMetadata: { currentUser: { email: string; uid: string }; users: unknown[]; inviteUid: string };
  payload: unknown[];
}

/** The live configuration, every key present. */
export interface Config {
  ssr: boolean;
  enable: boolean;
  debug: boolean;
  cleanCslpOnProduction: boolean;
  editButton: {
    /** `undefined` only when a caller cleared it; the edit button then logs and stays hidden. */
    enable: boolean | undefined;
    exclude: ExcludeRule[];
    position: string;
    includeByQueryParameter: boolean;
  };
  editInVisualBuilderButton: { enable: boolean; position: string };
  hash: string;
  mode: ModeNumber;
  windowType: WindowType;
  stackDetails: {
    apiKey: string;
    environment: string;
    contentTypeUid: string;
    entryUid: string;
    locale: string;
    branch: string;
    masterLocale: string;
  };
  clientUrlParams: { protocol: string; host: string; port: number | string; url: string };
  stackSdk: StackSdk & { live_preview: StackSdkLivePreview; environment: string };
  runScriptsOnUpdate: boolean;
  /** The subscriber fan-out once the layer runs. */
  onChange: () => void;
  elements: { highlightedElement: Element | null };
  collab: CollabConfig;
  /** Empty: the origin of `clientUrlParams`. */
  editorOrigins: string[];
  /** The builder's texts as the page gave them, read by the builder (builder/text.ts). */
  messages: Record<string, unknown>;
  enableLivePreviewOutsideIframe: boolean | undefined;
}

/** What the public `config` getter shares. */
export type ExportedConfig = Pick<
  Config,
  | 'ssr'
  | 'enable'
  | 'cleanCslpOnProduction'
  | 'stackDetails'
  | 'clientUrlParams'
  | 'windowType'
  | 'hash'
  | 'editButton'
  | 'mode'
>;
