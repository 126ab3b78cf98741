import { isRecord } from '../../common/is-record.ts';
import { LayerError } from '../errors.ts';
import { MODE } from '../protocol.ts';
import type { ClientUrlParamsInput, Config, ExportedConfig, InitData } from './types.ts';

/**
 * Applying `init` data, URL parameters and single values to the configuration.
 * Every call starts from the current configuration: a later `init` changes only what it names.
 */

const first = <T>(...values: (T | undefined)[]): T | undefined => values.find((v) => v !== undefined);
const DEFAULT_PORTS: Record<string, number> = { http: 80, https: 443 };

function clientUrlParams(input: ClientUrlParamsInput, current: Config['clientUrlParams']): Config['clientUrlParams'] {
  const protocol = input.protocol ?? current.protocol;
  // A protocol alone brings its default port.
  const port = input.port ?? (input.protocol ? (DEFAULT_PORTS[input.protocol] ?? current.port) : current.port);
  const host = (input.host ?? current.host).replace(/\/$/, '');
  return { protocol, host, port, url: `${protocol}://${host}:${port}` };
}

function origins(list: unknown): string[] {
  if (!Array.isArray(list)) throw new LayerError('INVALID_EDITOR_ORIGIN', String(list));
  return list.map((origin: unknown) => {
    if (typeof origin !== 'string') throw new LayerError('INVALID_EDITOR_ORIGIN', String(origin));
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {}
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin.replace(/\/$/, ''))
      throw new LayerError('INVALID_EDITOR_ORIGIN', origin);
    return parsed.origin;
  });
}

/**
 * Config keys must exist: a key of `init`, or of one of its groups, that the
 * configuration does not have is a typo the caller should hear about. The stack SDK is someone
 * else's object and is not checked, nor are the texts (`messages`), which the builder reads by key.
 */
function checkKeys(init: InitData, config: Config): void {
  for (const [key, value] of Object.entries(init)) {
    if (!Object.hasOwn(config, key)) throw new LayerError('INVALID_KEY', key);
    const known = config[key as keyof Config];
    if (key === 'stackSdk' || key === 'messages' || !isRecord(value) || !isRecord(known)) continue;
    for (const inner of Object.keys(value))
      if (!Object.hasOwn(known, inner)) throw new LayerError('INVALID_KEY', `${key}.${inner}`);
  }
}

/** Merges `init` into `config`; throws the spec's errors for unknown keys, a bad mode or an incomplete builder setup. */
export function applyInit(config: Config, init: InitData): void {
  checkKeys(init, config);
  const sdk = init.stackSdk;
  const live = sdk?.live_preview ?? {};
  const button = init.editButton ?? {};
  const details = init.stackDetails ?? {};

  config.enable = first(init.enable, live.enable, config.enable) as boolean;
  // The stack SDK's flag wins over init.ssr; a stack SDK object means client-side rendering.
  config.ssr = first(live.ssr, init.ssr, typeof sdk === 'object' ? false : undefined) ?? true;
  config.runScriptsOnUpdate = first(
    init.runScriptsOnUpdate,
    live.runScriptsOnUpdate,
    config.runScriptsOnUpdate,
  ) as boolean;
  config.cleanCslpOnProduction = first(
    init.cleanCslpOnProduction,
    live.cleanCslpOnProduction,
    config.cleanCslpOnProduction,
  ) as boolean;
  config.debug = first(init.debug, live.debug, config.debug) as boolean;
  if (sdk) config.stackSdk = { ...sdk, live_preview: live, environment: sdk.environment ?? '' };

  config.editButton = {
    enable: first(button.enable, live.editButton?.enable, config.editButton.enable),
    exclude: Array.isArray(button.exclude)
      ? button.exclude
      : Array.isArray(live.exclude)
        ? live.exclude
        : (config.editButton.exclude ?? []),
    position: first(button.position, live.position, config.editButton.position) ?? 'top',
    includeByQueryParameter:
      first(button.includeByQueryParameter, live.includeByQueryParameter, config.editButton.includeByQueryParameter) ??
      true,
  };
  config.editInVisualBuilderButton = {
    enable: first(
      init.editInVisualBuilderButton?.enable,
      live.editInVisualBuilderButton?.enable,
      config.editInVisualBuilderButton.enable,
    ) as boolean,
    position:
      first(init.editInVisualBuilderButton?.position, live.position, config.editInVisualBuilderButton.position) ??
      'bottom-right',
  };
  const urlParams = init.clientUrlParams ?? live.clientUrlParams;
  if (urlParams) config.clientUrlParams = clientUrlParams(urlParams, config.clientUrlParams);

  if (init.mode !== undefined) {
    if (init.mode !== 'preview' && init.mode !== 'builder') throw new LayerError('INVALID_MODE');
    config.mode = MODE[init.mode];
  }
  const { stackDetails } = config;
  stackDetails.apiKey = details.apiKey ?? stackDetails.apiKey;
  stackDetails.environment = first(details.environment, sdk?.environment, stackDetails.environment) as string;
  stackDetails.branch = first(details.branch, sdk?.branch, sdk?.headers?.branch, stackDetails.branch) as string;
  stackDetails.locale = details.locale ?? stackDetails.locale;
  if (init.editorOrigins) config.editorOrigins = origins(init.editorOrigins);
  if (init.messages) config.messages = init.messages;
  config.enableLivePreviewOutsideIframe = first(
    init.enableLivePreviewOutsideIframe,
    config.enableLivePreviewOutsideIframe,
  );

  if (config.mode === MODE.builder) {
    if (!stackDetails.environment) throw new LayerError('ENVIRONMENT_REQUIRED');
    if (!stackDetails.apiKey) throw new LayerError('API_KEY_REQUIRED');
  }
}

/** Stores a live-preview hash where 3.2.5 keeps it (config and stack SDK). */
export function setHash(config: Config, hash: string): void {
  config.hash = hash;
  config.stackSdk.live_preview.hash = hash;
  config.stackSdk.live_preview.live_preview = hash;
}

/** Stores the page entry where 3.2.5 keeps it. */
export function setEntry(config: Config, contentTypeUid: string, entryUid: string): void {
  config.stackDetails.contentTypeUid = contentTypeUid;
  config.stackDetails.entryUid = entryUid;
  config.stackSdk.live_preview.content_type_uid = contentTypeUid;
  config.stackSdk.live_preview.entry_uid = entryUid;
}

/** The preview parameters of the page URL: the hash and the page entry. */
export function applyUrl(config: Config, url: URL): void {
  const { searchParams } = url;
  const hash = searchParams.get('live_preview');
  if (hash) setHash(config, hash);
  const contentType = searchParams.get('content_type_uid');
  const entry = searchParams.get('entry_uid');
  if (contentType) {
    config.stackDetails.contentTypeUid = contentType;
    config.stackSdk.live_preview.content_type_uid = contentType;
  }
  if (entry) {
    config.stackDetails.entryUid = entry;
    config.stackSdk.live_preview.entry_uid = entry;
  }
}

/** The origins messages may come from and go to. */
export function editorOrigins(config: Config): string[] {
  if (config.editorOrigins.length > 0) return config.editorOrigins;
  const { protocol, host, port } = config.clientUrlParams;
  const url = new URL(`${protocol}://${host}`);
  url.port = String(port);
  return [url.origin];
}

/** A deep copy of what the public `config` getter shares. */
export function exportConfig(config: Config): ExportedConfig {
  const { ssr, enable, cleanCslpOnProduction, stackDetails, clientUrlParams, windowType, hash, editButton, mode } =
    config;
  return structuredClone({
    ssr,
    enable,
    cleanCslpOnProduction,
    stackDetails,
    clientUrlParams,
    windowType,
    hash,
    editButton,
    mode,
  });
}
