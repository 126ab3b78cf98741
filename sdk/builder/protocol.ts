import { isRecord } from '../../common/is-record.ts';
import type { CslpData } from '../cslp/parse.ts';
import type { FieldSchema } from './field-type.ts';

/**
 * The visual-builder channel's editing messages, kept beside the builder chunk so
 * the preview core does not carry them; the channel and the init handshake are in ../protocol.ts.
 * Replies pass through the `read*` functions: an answer we cannot read counts as an empty one.
 */

/** Layer → editor requests. */
export type VbSent =
  | 'get-field-schema'
  | 'get-field-data'
  | 'get-permissions'
  | 'get-field-display-names'
  | 'get-field-variant-status'
  | 'mouse-click'
  | 'focus-field'
  | 'sync-field'
  | 'update-field'
  | 'add-instance'
  | 'delete-instance'
  | 'move-instance'
  | 'open-field-edit-modal'
  | 'open-asset-modal'
  | 'open-reference-modal'
  | 'send-variant-revert-action-trigger'
  | 'get-discussion-id-for-comment-modal'
  | 'open-field-comment-modal'
  // 4.x: workflow-stage and variant locks, and the request for edit access.
  | 'get-workflow-stage-details'
  | 'get-resolved-variant-permissions'
  | 'open-request-edit-access'
  // 4.x: variant linking and the variant-highlight switch's state.
  | 'open-link-variant-modal'
  | 'get-highlight-variant-fields-status';

/** Editor → layer requests handled in the builder window. */
export type VbReceived =
  | 'hide-focus-overlay'
  | 'scroll-to-view-field-by-cslp-value'
  | 'get-entries-in-current-page'
  | 'show-draft-fields'
  | 'remove-draft-fields'
  | 'show-variant-fields'
  | 'remove-variant-fields'
  | 'get-variant-id'
  | 'get-locale'
  | 'set-audience-mode'
  | 'toggle-scroll'
  | 'delete-instance'
  | 'update-discussion-id-for-focus-field';

/** Editor → layer on the live-preview channel, handled by the builder. */
export const VARIANT_PATCH = 'variant-patch-update';

export interface Permissions {
  create: boolean;
  read: boolean;
  update: boolean;
  delete: boolean;
  publish: boolean;
}

export interface VariantStatus {
  isAddedInstances: boolean;
  isBaseModified: boolean;
  isDeletedInstances: boolean;
  isOrderChanged: boolean;
  fieldLevelCustomizations: boolean;
}

export type SchemaMap = Record<string, FieldSchema>;
export type Direction = 'previous' | 'next';

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export function readSchemaReply(value: unknown): SchemaMap {
  const map = isRecord(value) ? value.fieldSchemaMap : undefined;
  if (!isRecord(map)) return {};
  return Object.fromEntries(Object.entries(map).filter(([, schema]) => isRecord(schema))) as SchemaMap;
}

/** A failed or empty answer allows everything: the editor enforces permissions again on save. */
export function readPermissions(value: unknown): Permissions {
  const reply = isRecord(value) ? value : {};
  const flag = (key: string) => reply[key] !== false;
  return {
    create: flag('create'),
    read: flag('read'),
    update: flag('update'),
    delete: flag('delete'),
    publish: flag('publish'),
  };
}

/**
 * An entry's workflow stage as it bears on editing (`get-workflow-stage-details`): `update` is false
 * only when the editor says so; `request` is what the locked field offers: asking for edit access,
 * or a request already pending.
 */
export interface WorkflowStage {
  name: string;
  update: boolean;
  request: 'request' | 'pending' | undefined;
}

/** A failed, late or unreadable answer allows editing, as in 4.4.1. */
export function readWorkflowStage(value: unknown): WorkflowStage {
  const reply = isRecord(value) ? value : {};
  const stage = isRecord(reply.stage) ? reply.stage : {};
  const entry = isRecord(reply.permissions) && isRecord(reply.permissions.entry) ? reply.permissions.entry : {};
  const access = isRecord(reply.requestEditAccess) ? reply.requestEditAccess : {};
  return {
    name: str(stage.name) || 'Unknown',
    update: entry.update !== false,
    request: access.hasPending === true ? 'pending' : access.canRequest === true ? 'request' : undefined,
  };
}

/**
 * Whether the field exists in the selected variant (`get-resolved-variant-permissions`); anything
 * but a plain `update: false` allows. `error` is 4.4.1's mark of a failed or unreadable answer,
 * which still locks a lower-order variant field.
 */
export interface VariantPermission {
  update: boolean;
  error: boolean;
}
export function readVariantPermission(value: unknown): VariantPermission {
  if (!isRecord(value) || value.error === true) return { update: true, error: true };
  return { update: value.update !== false, error: false };
}

/** `open-link-variant-modal` (4.x): only `{type: "success"}` means the field was linked. */
export const readLinked = (value: unknown): boolean => isRecord(value) && value.type === 'success';

/** `get-highlight-variant-fields-status` (4.x): anything but `true` is off, as in 4.4.1. */
export const readHighlightStatus = (value: unknown): boolean =>
  isRecord(value) && value.highlightVariantFields === true;

/** `{error: true}` reads as empty data. */
export function readFieldData(value: unknown): unknown {
  if (!isRecord(value) || value.error) return '';
  return value.fieldData ?? '';
}

/** Display names by tag; null when the editor answered with an error. */
export function readDisplayNames(value: unknown): Record<string, string> | null {
  if (!isRecord(value) || value.error) return null;
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

export function readVariantStatus(value: unknown): VariantStatus {
  const reply = isRecord(value) ? value : {};
  const flag = (key: string) => reply[key] === true;
  return {
    isAddedInstances: flag('isAddedInstances'),
    isBaseModified: flag('isBaseModified'),
    isDeletedInstances: flag('isDeletedInstances'),
    isOrderChanged: flag('isOrderChanged'),
    fieldLevelCustomizations: flag('fieldLevelCustomizations'),
  };
}

export interface HideFocusOverlay {
  noTrigger: boolean;
  /** The editor moves to comments: collaboration goes on, paused. */
  fromCollab: boolean;
}
export function readHideFocusOverlay(value: unknown): HideFocusOverlay {
  return {
    noTrigger: isRecord(value) && value.noTrigger === true,
    fromCollab: isRecord(value) && value.fromCollab === true,
  };
}

/** A field's comment thread; `uid: 'new'` when it has none yet. */
export type Discussion = Record<string, unknown> & { uid: string };
export const NEW_DISCUSSION: Discussion = { uid: 'new' };

/**
 * The answer to `get-discussion-id-for-comment-modal`: null or `{error: true}`
 * means the editor offers no comments for the field; any other answer without a uid is read as
 * "no discussion yet". A failed request falls back to a new discussion, in the caller.
 */
export function readDiscussion(value: unknown): Discussion | null {
  if (value === null || value === undefined || (isRecord(value) && value.error)) return null;
  return isRecord(value) && typeof value.uid === 'string' ? (value as Discussion) : NEW_DISCUSSION;
}

/** `update-discussion-id-for-focus-field`: which field, and its discussion (a new one when null). */
export function readDiscussionUpdate(
  value: unknown,
): { entryId: string; contentTypeId: string; fieldPath: string; discussion: Discussion } | null {
  if (!isRecord(value)) return null;
  const [entryId, contentTypeId, fieldPath] = [value.entryId, value.contentTypeId, value.fieldPath].map(str);
  if (!entryId || !contentTypeId || !fieldPath) return null;
  return { entryId, contentTypeId, fieldPath, discussion: readDiscussion(value.discussion) ?? NEW_DISCUSSION };
}

/** `variant-patch-update`: the tags a patched field is expected to take. */
export interface VariantPatch {
  highlight: boolean;
  variant: string | undefined;
  base: string | undefined;
}
export function readVariantPatch(value: unknown): VariantPatch {
  const data = isRecord(value) ? value : {};
  const expected = isRecord(data.expectedCSLPValues) ? data.expectedCSLPValues : {};
  return {
    highlight: data.highlightVariantFields === true,
    variant: str(expected.variant),
    base: str(expected.base),
  };
}

export function readScrollToField(value: unknown): string | null {
  const data = isRecord(value) && isRecord(value.cslpData) ? value.cslpData : null;
  if (!data) return null;
  const parts = [data.content_type_uid, data.entry_uid, data.locale, data.path].map(str);
  return parts.every(Boolean) ? parts.join('.') : null;
}

export function readDraftFields(value: unknown): string[] {
  const fields = isRecord(value) ? value.fields : undefined;
  return Array.isArray(fields) ? fields.filter((field): field is string => typeof field === 'string') : [];
}

/** `show-variant-fields`; `order` (4.x `variantOrder`) lists variant uids, the later the higher their priority. */
export function readVariantFields(value: unknown): { variant: string; highlight: boolean; order: string[] } | null {
  const data = isRecord(value) && isRecord(value.variant_data) ? value.variant_data : null;
  const variant = str(data?.variant);
  const order = Array.isArray(data?.variantOrder)
    ? data.variantOrder.filter((uid): uid is string => typeof uid === 'string')
    : [];
  return variant ? { variant, highlight: data?.highlightVariantFields === true, order } : null;
}

export const readOnlyHighlighted = (value: unknown): boolean => isRecord(value) && value.onlyHighlighted === true;
export const readVariantId = (value: unknown): string | undefined => (isRecord(value) ? str(value.variant) : undefined);
export const readLocale = (value: unknown): string | undefined => (isRecord(value) ? str(value.locale) : undefined);
export const readAudienceMode = (value: unknown): boolean => isRecord(value) && value.audienceMode === true;
/** `toggle-scroll` (4.x): only `{scroll: false}` stops the page scrolling. */
export const readScrollStopped = (value: unknown): boolean => isRecord(value) && value.scroll === false;
export const readDeletePath = (value: unknown): string | undefined => (isRecord(value) ? str(value.path) : undefined);

/** `mouse-click` payload: both keys present, undefined when the click hit no tagged element. */
export interface MouseClick {
  cslpData: string | undefined;
  fieldMetadata: CslpData | undefined;
}
