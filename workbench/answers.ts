import type { Api } from './api.ts';
import { COLLAB_HANDLERS, type CollabState, collabInit } from './collab.ts';
import {
  addInstance,
  deleteInstance,
  type EditedEntry,
  getAt as getValue,
  type Json,
  type JsonObject,
  moveInstance,
} from './entries.ts';
import { fieldApps } from './field-app.ts';
import type { EntriesForm } from './form.ts';
import { answerer, type BuilderRequests, type EditorChannel, type LivePreviewRequests } from './protocol.ts';
import { existsInVariant, type VariantState } from './variant.ts';

/**
 * The editor's answers to the layer on the live-preview and visual-builder channels, typed by the
 * layer's own protocol types (protocol.ts): the page entry, field schemas (with the form's field
 * locks as `updateRestrict`), permissions (the form's read-only switches), field values, display
 * names, and the page's edits into the form and the drafts.
 */

export interface AnswerDeps {
  api: Api;
  form: EntriesForm;
  page: { uuid: string };
  /** The window type `init` answers: a preview-share link is a window type of its own (4.0.1). */
  mode: 'preview' | 'builder' | 'preview-share';
  masterLocale: string;
  collab: CollabState;
  say(text: string): void;
  /** The workbench variant: which one is chosen, and its fields (4.x). */
  variant: VariantState;
  /** Opens a field-location app the page chose (4.x). */
  openApp(payload: BuilderRequests['field-location-selected-app']['payload']): void;
}

const NO_VARIANT_CHANGES = {
  isAddedInstances: false,
  isBaseModified: false,
  isDeletedInstances: false,
  isOrderChanged: false,
  fieldLevelCustomizations: false,
};

/** A field's label from its path: the last segment, words spaced, first letter capital. */
export const labelOf = (fieldPath: string) =>
  (fieldPath.split('.').pop() ?? fieldPath).replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** Where each entry of the page is referenced from: every `{_content_type_uid, uid}` item in another entry. */
export function referenceMap(entries: EditedEntry[]) {
  const map: Record<string, { contentTypeUid: string; contentTypeTitle: string; referenceFieldName: string }[]> = {};
  const visit = (entry: EditedEntry, value: Json, path: string) => {
    if (Array.isArray(value)) {
      for (const item of value) {
        const ref = item && typeof item === 'object' && !Array.isArray(item) ? item : null;
        if (ref && typeof ref._content_type_uid === 'string' && typeof ref.uid === 'string') {
          map[ref.uid] ??= [];
          map[ref.uid]?.push({
            contentTypeUid: entry.contentType,
            contentTypeTitle: labelOf(entry.contentType),
            referenceFieldName: labelOf(path),
          });
        } else visit(entry, item, path);
      }
    } else if (value && typeof value === 'object')
      for (const [key, inner] of Object.entries(value)) visit(entry, inner, path ? `${path}.${key}` : key);
  };
  for (const entry of entries) visit(entry, entry.value, '');
  return map;
}

export function answerLivePreview(lp: EditorChannel, { form, page, mode }: AnswerDeps): void {
  const on = answerer<LivePreviewRequests>(lp);
  on('init', () => ({ contentTypeUid: 'page', entryUid: page.uuid, windowType: mode }));
  on('check-entry-page', () => undefined);
  on('url-change', () => undefined);
  on('scroll', (d) => {
    form.focusField(`${d.content_type_uid}.${d.entry_uid}.${d.locale}.${d.field}`);
    return undefined;
  });
}

/** Field schemas by content type, fetched once; a failed fetch answers an empty map. */
function schemaSource(api: Api) {
  const schemas = new Map<string, Promise<{ fieldSchemaMap: Record<string, JsonObject> }>>();
  return (type: string) => {
    let schema = schemas.get(type);
    if (!schema) {
      const name = encodeURIComponent(type === 'page' ? 'pages' : type);
      schema = api<{ fieldSchemaMap: Record<string, JsonObject> }>(`/__workbench/api/field-schema/${name}`).catch(
        () => ({ fieldSchemaMap: {} }),
      );
      schemas.set(type, schema);
    }
    return schema;
  };
}

export function answerBuilder(vb: EditorChannel, deps: AnswerDeps): void {
  const { form, say } = deps;
  const on = answerer<BuilderRequests>(vb);
  const schemaOf = schemaSource(deps.api);

  on('init', () => ({
    windowType: 'builder',
    stackDetails: { masterLocale: deps.masterLocale },
    collab: collabInit(deps.collab, false),
  }));
  on('send-variant-and-locale', () => undefined);
  on('get-field-schema', async ({ contentTypeUid: type }) => {
    const { fieldSchemaMap } = await schemaOf(type);
    const answered: Record<string, JsonObject> = {};
    for (const [path, schema] of Object.entries(fieldSchemaMap))
      answered[path] = form.lockedFields.has(`${type}:${path}`)
        ? { ...schema, field_metadata: { ...(schema.field_metadata as JsonObject), updateRestrict: true } }
        : schema;
    return { fieldSchemaMap: answered };
  });
  on('get-permissions', (d) => {
    const entry = form.entryOf(d.contentTypeUid, d.entryUid);
    const update = !entry || !form.readOnly.has(entry);
    return { create: true, read: true, update, delete: update, publish: update };
  });
  on('get-field-variant-status', () => NO_VARIANT_CHANGES);
  // 4.x: an entry's "stage lock" switch locks it in the Review stage; its editor may ask for access once.
  on('get-workflow-stage-details', (d) => {
    const entry = form.entryOf(d.contentTypeUid, d.entryUid);
    const locked = Boolean(entry && form.stageLocked.has(entry));
    const pending = Boolean(entry && form.accessRequested.has(entry));
    return {
      stage: { name: 'Review' },
      permissions: { entry: { update: !locked } },
      requestEditAccess: { canRequest: locked && !pending, hasPending: locked && pending },
    };
  });
  on('open-request-edit-access', (d) => {
    const entry = form.entryOf(d.contentTypeUid, d.entryUid);
    if (entry) form.accessRequested.add(entry);
    say(`Edit access requested for ${d.contentTypeUid} ${d.entryUid}`);
    return undefined;
  });
  // The workbench variant has the fields ticked for it; without a variant chosen every field exists.
  on('get-resolved-variant-permissions', (d) => ({
    update: existsInVariant(deps.variant, d.content_type_uid, d.fieldPathWithIndex),
  }));
  // 4.x: the hover toolbar's names from the store, and the workbench's dummy field-location apps.
  on('get-content-type-name', (d) => ({ contentTypeName: labelOf(d.content_type_uid) }));
  on('get-reference-map', () => referenceMap(form.entries));
  on('field-location-data', (d) => ({ apps: fieldApps(d.domEditStack, labelOf) }));
  on('field-location-selected-app', (d) => {
    deps.openApp(d);
    return undefined;
  });
  // 4.x: the chosen variant's fields are highlighted; the store has nothing to link, so linking succeeds at once.
  on('get-highlight-variant-fields-status', () => ({ highlightVariantFields: Boolean(deps.variant.selected) }));
  on('open-link-variant-modal', (d) => {
    say(`Variant link requested for ${d.contentTypeUid}`);
    return { type: 'success', message: 'Linked' };
  });
  on('get-field-data', (d) => {
    const entry = form.entryOf(d.fieldMetadata.content_type_uid, d.fieldMetadata.entry_uid);
    const value = entry && getValue(entry.value, d.entryPath);
    return value === undefined ? { error: true } : { fieldData: value };
  });
  on('get-field-display-names', (list) => Object.fromEntries(list.map((d) => [d.cslpValue, labelOf(d.fieldPath)])));
  on('get-discussion-id-for-comment-modal', () => null);
  on('mouse-click', (d) => {
    if (d.cslpData) form.focusField(d.cslpData);
    return undefined;
  });
  on('focus-field', (d) => {
    const last = d.DOMEditStack[d.DOMEditStack.length - 1];
    if (last) form.focusField(last.cslpValue);
    return undefined;
  });
  on('sync-field', (d) => {
    form.applyFromPage(d.fieldMetadata, d.data, false);
    return undefined;
  });
  on('update-field', (d) => {
    form.applyFromPage(d.fieldMetadata, d.data, true);
    return undefined;
  });
  on('add-instance', async (d) => {
    await form.structural(d.fieldMetadata, (v) => addInstance(v, d.fieldMetadata.fieldPathWithIndex, d.index));
    return undefined;
  });
  on('delete-instance', async (d) => {
    await form.structural(d.fieldMetadata, (v) => deleteInstance(v, d.data));
    return undefined;
  });
  on('move-instance', async (d) => {
    await form.structural(d.fieldMetadata, (v) => moveInstance(v, d.data, d.direction));
    return undefined;
  });
  for (const type of ['open-field-edit-modal', 'open-asset-modal', 'open-reference-modal', 'open-field-comment-modal'])
    vb.on(type, () => say(`${type}: not offered by the workbench`));
}

/** Collaboration: threads and comments of this page, kept by the server beside the drafts. */
export function answerCollab(vb: EditorChannel, { api, collab, collabUrl, say }: CollabDeps): void {
  for (const [type, { run, changes }] of Object.entries(COLLAB_HANDLERS))
    vb.on(type, async (event: { data: Record<string, unknown> | undefined }) => {
      const answered = run(collab, event.data ?? {});
      if (changes)
        await api(collabUrl, { method: 'PUT', body: JSON.stringify(collab) }).catch((error: Error) =>
          say(error.message, 'error'),
        );
      return answered;
    });
}

export interface CollabDeps {
  api: Api;
  collab: CollabState;
  collabUrl: string;
  say(text: string, kind?: 'info' | 'error'): void;
}

/** The Comments switch: turns collaboration on in the page (feedback mode) or off. */
export function commentsSwitch(vb: EditorChannel, toggle: HTMLInputElement, { collab, say }: CollabDeps): void {
  toggle.addEventListener('change', () => {
    const message = toggle.checked
      ? vb.send('collab-enable', { collab: { ...collabInit(collab, true), pauseFeedback: false, fromShare: false } })
      : vb.send('collab-disable', { collab: {} });
    message.catch((error: unknown) => say(`Comments: ${String((error as Error)?.message ?? error)}`, 'error'));
  });
}
