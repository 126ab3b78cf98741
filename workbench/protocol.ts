import type {
  Direction,
  FieldApp,
  MouseClick,
  Permissions,
  ReferenceParent,
  VariantStatus,
} from '../sdk/builder/protocol.ts';
import type { CslpData } from '../sdk/cslp/parse.ts';
import type { InitReply, ScrollRequest } from '../sdk/protocol.ts';

/**
 * The editor's side of the protocol, described by the layer's own types (type-only imports: one
 * description of each payload on both sides, nothing of the SDK in the workbench bundle). Each
 * entry is what the layer sends and what the workbench answers.
 */

type FieldSchemaMap = { fieldSchemaMap: Record<string, Record<string, unknown>> };

export interface LivePreviewRequests {
  init: { payload: unknown; answer: InitReply };
  'check-entry-page': { payload: { href: string }; answer: undefined };
  'url-change': { payload: { targetURL: string }; answer: undefined };
  scroll: { payload: ScrollRequest; answer: undefined };
}

export interface BuilderRequests {
  init: {
    payload: unknown;
    answer: { windowType: 'builder'; stackDetails: { masterLocale: string }; collab: Record<string, unknown> };
  };
  'send-variant-and-locale': { payload: unknown; answer: undefined };
  'get-field-schema': { payload: { contentTypeUid: string }; answer: FieldSchemaMap };
  'get-permissions': {
    payload: { type: 'entry'; entryUid: string; contentTypeUid: string; locale: string };
    answer: Permissions;
  };
  'get-field-variant-status': { payload: CslpData; answer: VariantStatus };
  'get-field-data': {
    payload: { fieldMetadata: Pick<CslpData, 'content_type_uid' | 'entry_uid' | 'locale'>; entryPath: string };
    answer: { fieldData: unknown } | { error: true };
  };
  'get-field-display-names': { payload: CslpData[]; answer: Record<string, string> };
  'get-discussion-id-for-comment-modal': { payload: unknown; answer: null };
  'mouse-click': { payload: MouseClick; answer: undefined };
  'focus-field': { payload: { DOMEditStack: CslpData[]; toggleVisibility?: boolean }; answer: undefined };
  'sync-field': { payload: { data: string; fieldMetadata: CslpData }; answer: undefined };
  'update-field': { payload: { data: string; fieldMetadata: CslpData }; answer: undefined };
  'add-instance': { payload: { fieldMetadata: CslpData; index: number }; answer: undefined };
  'delete-instance': { payload: { data: string; fieldMetadata: CslpData }; answer: undefined };
  'move-instance': { payload: { data: string; direction: Direction; fieldMetadata: CslpData }; answer: undefined };
  // 4.x: the workflow-stage and variant locks, and the request for edit access.
  'get-workflow-stage-details': { payload: EntryRef; answer: StageDetails };
  'get-resolved-variant-permissions': {
    payload: {
      content_type_uid: string;
      entry_uid: string;
      locale: string;
      variant?: string;
      fieldPathWithIndex: string;
    };
    answer: { update: boolean };
  };
  'open-request-edit-access': { payload: EntryRef; answer: undefined };
  // 4.x: the hover toolbar's names and field-location apps.
  'get-content-type-name': { payload: { content_type_uid: string }; answer: { contentTypeName: string } };
  'get-reference-map': { payload: unknown; answer: Record<string, ReferenceParent[]> };
  'field-location-data': { payload: { domEditStack: CslpData[] }; answer: { apps: FieldApp[] } };
  'field-location-selected-app': {
    payload: { app: FieldApp; position: Record<string, number>; DomEditStack: CslpData[] };
    answer: undefined;
  };
  // 4.x: variant linking and the variant-highlight switch.
  'open-link-variant-modal': { payload: { contentTypeUid: string }; answer: { type: 'success'; message: string } };
  'get-highlight-variant-fields-status': { payload: undefined; answer: { highlightVariantFields: boolean } };
}

type EntryRef = { entryUid: string; contentTypeUid: string; locale: string; variantUid?: string };
type StageDetails = {
  stage: { name: string };
  permissions: { entry: { update: boolean } };
  requestEditAccess: { canRequest: boolean; hasPending: boolean };
};

type Request = { payload: unknown; answer: unknown };

/** What the workbench needs of an advanced-post-message EventManager (also a test's fake). */
export interface EditorChannel {
  on(type: string, handler: (event: { data: never }) => unknown): unknown;
  send<R = undefined>(type: string, payload?: unknown): Promise<R>;
}

/** `on(type, handler)` for the requests of map `M`: the payload and the answer typed by the map. */
export function answerer<M extends { [K in keyof M]: Request }>(channel: EditorChannel) {
  return <K extends keyof M & string>(
    type: K,
    handler: (data: M[K]['payload']) => M[K]['answer'] | Promise<M[K]['answer']>,
  ): void => {
    channel.on(type, (event: { data: M[K]['payload'] }) => handler(event.data));
  };
}
