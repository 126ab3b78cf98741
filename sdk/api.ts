import { applyInit, applyUrl, exportConfig } from './config/config.ts';
import { baseConfig, defaultInit } from './config/defaults.ts';
import type { ExportedConfig, InitData } from './config/types.ts';
import { LAYER_ERRORS } from './errors.ts';
import { type Layer, type Loaders, startLayer } from './live-preview/live-preview.ts';
import { createSubscribers, type EntryChangeCallback, type Subscribers } from './live-preview/subscribers.ts';
import { logger } from './logger.ts';
import { SDK_VERSION } from './protocol.ts';

/**
 * The public API, the same object for the ES module and the standalone script;
 * each passes its own way of loading the lazy chunks.
 */
export interface LivePreview {
  /** Applies `config` (3.2.5's defaults when omitted) and, the first time, starts the layer; rejects on a bad config. */
  init(config?: InitData): Promise<{ livePreview?: Layer }>;
  /** Runs `callback` on every entry change, and at once unless `skipInitialRender`; returns its id. */
  onEntryChange(callback: EntryChangeCallback, options?: { skipInitialRender?: boolean }): string;
  /** `onEntryChange` without the immediate call. */
  onLiveEdit(callback: EntryChangeCallback): string;
  unsubscribeOnEntryChange(idOrCallback: string | EntryChangeCallback): void;
  /** The live-preview hash: the editor's latest, or the page URL's before `init`. */
  readonly hash: string;
  readonly config: ExportedConfig;
  getSdkVersion(): string;
}

export function createLivePreview(loaders: Loaders): LivePreview {
  const config = baseConfig();
  let layer: Layer | undefined;
  let subscribers: Subscribers | undefined;
  const browser = typeof window !== 'undefined';
  // Subscribers registered before init wait here.
  const waiting = createSubscribers(globalThis.crypto);
  const current = () => subscribers ?? waiting;
  const readUrl = () => {
    if (browser && !layer) applyUrl(config, new URL(window.location.href));
  };

  const api: LivePreview = {
    // Async, so a configuration error rejects the promise instead of throwing at the call.
    async init(init = defaultInit()) {
      if (!browser) {
        logger.warn(LAYER_ERRORS.NO_WINDOW);
        return {};
      }
      applyInit(config, init);
      applyUrl(config, new URL(window.location.href));
      if (layer) {
        logger.warn(LAYER_ERRORS.ALREADY_INITIALIZED);
        return { livePreview: layer };
      }
      subscribers = createSubscribers(window.crypto);
      layer = startLayer(window, config, subscribers, loaders);
      for (const [id, callback] of waiting.entries) subscribers.entries.set(id, callback);
      waiting.entries.clear();
      return { livePreview: layer };
    },
    onEntryChange(callback, { skipInitialRender = false } = {}) {
      const id = current().add(callback);
      const search = browser ? new URLSearchParams(window.location.search) : undefined;
      // The builder sends no first client-data-send, so its pages render at once.
      if (!skipInitialRender || (search?.has('live_preview') && search.has('builder'))) callback();
      return id;
    },
    onLiveEdit(callback) {
      return api.onEntryChange(callback, { skipInitialRender: true });
    },
    unsubscribeOnEntryChange(idOrCallback) {
      current().remove(idOrCallback);
    },
    get hash() {
      readUrl();
      return config.hash;
    },
    get config() {
      readUrl();
      return exportConfig(config);
    },
    getSdkVersion: () => SDK_VERSION,
  };
  return api;
}
