import type { Config } from '../config/types.ts';
import type { CslpData } from '../cslp/parse.ts';
import { LayerError } from '../errors.ts';

/**
 * The editor's edit page of a tagged field, built as 3.2.5 builds
 * it because the editor's hash router reads it: the origin without a default port, then
 * `/#!/stack/…/edit`, then the query inside the fragment — `branch` only when one is set, then
 * `preview-field`, `preview-locale`, `preview-environment`. The locale defaults to en-us.
 */
export function editLink(config: Config, tag: CslpData): string {
  const { apiKey, environment, branch } = config.stackDetails;
  if (!apiKey) throw new LayerError('EDIT_LINK_API_KEY');
  if (!environment) throw new LayerError('EDIT_LINK_ENVIRONMENT');
  const { protocol, host, port } = config.clientUrlParams;
  const locale = tag.locale || 'en-us';
  const url = new URL(`${protocol}://${host}`);
  url.port = String(port);
  url.hash = `!/stack/${apiKey}/content-type/${tag.content_type_uid}/${locale}/entry/${tag.entry_uid}${tag.variant ? `/variant/${tag.variant}` : ''}/edit`;
  if (branch) url.searchParams.append('branch', branch);
  url.searchParams.append('preview-field', tag.fieldPathWithIndex);
  url.searchParams.append('preview-locale', locale);
  url.searchParams.append('preview-environment', environment);
  return `${url.origin}/${url.hash}${url.search}`;
}
