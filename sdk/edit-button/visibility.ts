import type { Config } from '../config/types.ts';
import { LAYER_ERRORS } from '../errors.ts';
import { logger } from '../logger.ts';

/**
 * Whether the edit button may exist, in this order: the config
 * switch; the `cslp-buttons` parameter (`false` hides, any other value shows) unless
 * `includeByQueryParameter` is false; outside the editor frame the `outsideLivePreviewPortal`
 * exclude; inside it the `insideLivePreviewPortal` exclude and the builder window type.
 */
export function editButtonAllowed(config: Config, url: URL, framed: boolean): boolean {
  const { enable, exclude, includeByQueryParameter } = config.editButton;
  if (!enable) {
    if (enable === undefined) logger.error(LAYER_ERRORS.EDIT_BUTTON_ENABLE_REQUIRED);
    return false;
  }
  const parameter = url.searchParams.get('cslp-buttons');
  if (parameter !== null && includeByQueryParameter !== false) return parameter !== 'false';
  if (!framed) return !exclude.includes('outsideLivePreviewPortal');
  return !exclude.includes('insideLivePreviewPortal') && config.windowType !== 'builder';
}

/** The timeline view (a non-empty `preview_timestamp`) never shows edit buttons. */
export function isTimeline(url: URL): boolean {
  return Boolean(url.searchParams.get('preview_timestamp'));
}
