import { isRecord } from '../../common/is-record.ts';
import type { CslpData } from '../cslp/parse.ts';
import type { Exchange } from '../protocol.ts';
import type { FieldSchema } from './field-type.ts';

/**
 * The visual-builder channel's editing messages, kept beside the builder chunk so
 * the preview core does not carry them; the channel and the init handshake are in ../protocol.ts.
 * Replies pass through the `read*` functions: an answer we cannot read counts as an empty one.
 */

/** A field named by its entry, as several requests carry it. */
interface FieldMetadata {
  fieldMetadata: CslpData;
}
/** An item of a multiple field: its path (`body_components.2`) and its field. */
interface InstancePayload extends FieldMetadata {
  data: string;
  direction?: Direction;
}
/** The entry a lock question is about. */
interface EntryOf {
  entryUid: string;
  contentTypeUid: string;
  locale: string;
  variantUid?: string | undefined;
}

/**
 * Layer → editor requests on the visual-builder channel, with what each carries and what its
 * answer reads as (protocol.ts `Exchange`). Answers the builder does not read are `unknown`.
 */
export interface VbSent {
  'get-field-schema': Exchange<{ contentTypeUid: string }, ReturnType<typeof readSchemaReply>>;
  'get-field-data': Exchange<
    { fieldMetadata: Pick<CslpData, 'content_type_uid' | 'entry_uid' | 'locale'>; entryPath: string },
    ReturnType<typeof readFieldData>
  >;
  'get-permissions': Exchange<{ type: 'entry' } & EntryOf, Permissions>;
  'get-field-display-names': Exchange<CslpData[], ReturnType<typeof readDisplayNames>>;
  'get-field-variant-status': Exchange<CslpData, VariantStatus>;
  'mouse-click': Exchange<MouseClick, unknown>;
  'focus-field': Exchange<{ DOMEditStack: CslpData[]; toggleVisibility?: boolean }, unknown>;
  'sync-field': Exchange<{ data: string } & FieldMetadata, unknown>;
  'update-field': Exchange<{ data: string } & FieldMetadata, unknown>;
  'add-instance': Exchange<{ index: number } & FieldMetadata, unknown>;
  'delete-instance': Exchange<InstancePayload, unknown>;
  'move-instance': Exchange<InstancePayload, unknown>;
  'open-field-edit-modal': Exchange<FieldMetadata, unknown>;
  'open-asset-modal': Exchange<FieldMetadata, unknown>;
  'open-reference-modal': Exchange<
    Pick<CslpData, 'entry_uid' | 'content_type_uid' | 'locale' | 'fieldPath' | 'fieldPathWithIndex'> & {
      entryPath: string;
    },
    unknown
  >;
  'send-variant-revert-action-trigger': Exchange<
    { fieldDataName: string; action: string; euid: string; ct_uid: string; locale: string },
    unknown
  >;
  'get-discussion-id-for-comment-modal': Exchange<FieldMetadata & { fieldSchema: FieldSchema }, Discussion | null>;
  'open-field-comment-modal': Exchange<
    FieldMetadata & { discussion: Discussion | null | undefined; fieldSchema: FieldSchema | undefined },
    unknown
  >;
  // 4.x: workflow-stage and variant locks, and the request for edit access.
  'get-workflow-stage-details': Exchange<EntryOf, WorkflowStage>;
  'get-resolved-variant-permissions': Exchange<
    Pick<CslpData, 'content_type_uid' | 'entry_uid' | 'locale' | 'variant' | 'fieldPathWithIndex'>,
    boolean
  >;
  'open-request-edit-access': Exchange<EntryOf, unknown>;
  // 4.x: the hover toolbar's names and field-location apps.
  'get-content-type-name': Exchange<{ content_type_uid: string }, ReturnType<typeof readContentTypeName>>;
  'get-reference-map': Exchange<Record<string, never>, ReturnType<typeof readReferenceMap>>;
  'field-location-data': Exchange<{ domEditStack: CslpData[] }, ReturnType<typeof readApps>>;
  'field-location-selected-app': Exchange<
    { app: FieldApp; position: Record<string, number>; DomEditStack: CslpData[] },
    unknown
  >;
  // 4.x: variant linking and the variant-highlight switch's state.
  'open-link-variant-modal': Exchange<{ contentTypeUid: string }, unknown>;
  'get-highlight-variant-fields-status': Exchange<undefined, unknown>;
}

/**
 * Editor → layer requests handled in the builder window: what each payload reads as (its `read*`
 * function) and what the handler answers.
 */
export interface VbReceived {
  'hide-focus-overlay': Exchange<HideFocusOverlay, void>;
  'scroll-to-view-field-by-cslp-value': Exchange<ReturnType<typeof readScrollToField>, void>;
  'get-entries-in-current-page': Exchange<
    void,
    { entriesInCurrentPage: { entryUid: string; contentTypeUid: string; locale: string }[] }
  >;
  'show-draft-fields': Exchange<ReturnType<typeof readDraftFields>, void>;
  'remove-draft-fields': Exchange<void, void>;
  'show-variant-fields': Exchange<ReturnType<typeof readVariantFields>, void>;
  'remove-variant-fields': Exchange<ReturnType<typeof readOnlyHighlighted>, void>;
  'get-variant-id': Exchange<ReturnType<typeof readVariantId>, void>;
  'get-locale': Exchange<ReturnType<typeof readLocale>, void>;
  'set-audience-mode': Exchange<ReturnType<typeof readAudienceMode>, void>;
  'toggle-scroll': Exchange<ReturnType<typeof readScrollStopped>, void>;
  'delete-instance': Exchange<ReturnType<typeof readDeletePath>, void>;
  'update-discussion-id-for-focus-field': Exchange<ReturnType<typeof readDiscussionUpdate>, void>;
}

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

// 4.x: the hover toolbar's names and field-location apps.

/** `get-content-type-name`: `{contentTypeName}`; anything else is no name. */
export const readContentTypeName = (value: unknown): string =>
  (isRecord(value) ? str(value.contentTypeName) : undefined) ?? '';

/** Where an entry is referenced from: the referring content type and its reference field. */
export interface ReferenceParent {
  contentTypeUid: string;
  contentTypeTitle: string;
  referenceFieldName: string;
}

/** `get-reference-map`: referring fields by entry uid; unreadable items are left out. */
export function readReferenceMap(value: unknown): Record<string, ReferenceParent[]> {
  if (!isRecord(value)) return {};
  const map: Record<string, ReferenceParent[]> = {};
  for (const [entryUid, list] of Object.entries(value)) {
    if (!Array.isArray(list)) continue;
    const parents = list.flatMap((item) => {
      if (!isRecord(item)) return [];
      const [contentTypeUid, contentTypeTitle, referenceFieldName] = [
        item.contentTypeUid,
        item.contentTypeTitle,
        item.referenceFieldName,
      ].map(str);
      return contentTypeUid && referenceFieldName
        ? [{ contentTypeUid, contentTypeTitle: contentTypeTitle || contentTypeUid, referenceFieldName }]
        : [];
    });
    if (parents.length > 0) map[entryUid] = parents;
  }
  return map;
}

/**
 * A field-location app (`field-location-data` answers `{apps}`): what the toolbar shows of it is
 * its title and icon; the whole record goes back in `field-location-selected-app`.
 */
export type FieldApp = Record<string, unknown> & { uid: string; title: string; icon?: string };

/** The apps an app record list offers; a record without uid or title is no app. */
export function readApps(value: unknown): FieldApp[] {
  const apps = isRecord(value) ? value.apps : undefined;
  if (!Array.isArray(apps)) return [];
  return apps.filter(
    (app): app is FieldApp =>
      isRecord(app) &&
      typeof app.uid === 'string' &&
      typeof app.title === 'string' &&
      app.title !== '' &&
      (app.icon === undefined || typeof app.icon === 'string'),
  );
}
