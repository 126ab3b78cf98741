import t, { type Test } from 'tap';
import { answerBuilder, answerCollab, answerLivePreview, labelOf } from './answers.ts';
import type { Api } from './api.ts';
import type { CollabState } from './collab.ts';
import type { Drafts } from './drafts.ts';
import type { EditedEntry } from './entries.ts';
import { createForm } from './form.ts';
import type { EditorChannel } from './protocol.ts';
import { installDom } from './test-dom.ts';
import { sendVariant, VARIANT_ORDER, VARIANT_UID } from './variant.ts';

/** The editor's answers, asked as the layer asks them (a fake channel records the handlers). */

function fakeChannel() {
  const handlers = new Map<string, (event: { data: unknown }) => unknown>();
  const channel: EditorChannel = {
    on: (type, handler) => handlers.set(type, handler as (event: { data: unknown }) => unknown),
    send: async () => undefined as never,
  };
  const ask = async (type: string, data?: unknown) => {
    const handler = handlers.get(type);
    if (!handler) throw new Error(`no answer for ${type}`);
    return handler({ data });
  };
  return { channel, ask };
}

function setup(t: Test) {
  installDom(t);
  const entry: EditedEntry = {
    type: 'pages',
    id: '4711',
    contentType: 'page',
    uid: 'p1',
    locale: 'en-GB',
    value: {
      uid: 'p1',
      title: 'Dishwasher',
      items: ['a', 'b'],
      template: [{ _content_type_uid: 'page_template', uid: 'dishwasher' }],
    },
  };
  const saved: EditedEntry[] = [];
  const drafts = { save: async (e: EditedEntry) => void saved.push(e), saveSoon: () => undefined } as unknown as Drafts;
  const form = createForm({ entries: [entry], drafts, permissionsChanged: () => {}, schemasChanged: () => {} });
  form.render();
  const asked: string[] = [];
  const api = (async (path: string) => {
    asked.push(path);
    return { fieldSchemaMap: { title: { uid: 'title', field_metadata: { multiline: false } } } };
  }) as Api;
  const said: string[] = [];
  const opened: unknown[] = [];
  const deps = {
    api,
    form,
    page: { uuid: '4711' },
    mode: 'builder' as const,
    masterLocale: 'en-GB',
    collab: { threads: [], comments: [] } as CollabState,
    say: (text: string) => void said.push(text),
    openApp: (payload: unknown) => void opened.push(payload),
    variant: { selected: undefined as string | undefined, fields: form.variantFields },
  };
  const lp = fakeChannel();
  const vb = fakeChannel();
  answerLivePreview(lp.channel, deps);
  answerBuilder(vb.channel, deps);
  return { lp, vb, form, entry, saved, asked, said, opened, deps };
}

const fieldMetadata = (path: string) => ({
  content_type_uid: 'page',
  entry_uid: 'p1',
  locale: 'en-GB',
  cslpValue: `page.p1.en-GB.${path}`,
  fieldPath: path.replace(/\.\d+/g, ''),
  fieldPathWithIndex: path.replace(/\.\d+$/, ''),
  instance: { fieldPathWithIndex: path },
  multipleFieldMetadata: { index: -1, parentDetails: null },
  variant: undefined,
});

t.test('init answers the page entry and the mode on both channels', async (t) => {
  const { lp, vb } = setup(t);
  t.same(await lp.ask('init'), { contentTypeUid: 'page', entryUid: '4711', windowType: 'builder' });
  t.match(await vb.ask('init'), { windowType: 'builder', stackDetails: { masterLocale: 'en-GB' } });
});

t.test('schemas are fetched once per type; a locked field is answered updateRestrict', async (t) => {
  const { vb, form, asked } = setup(t);
  t.same(await vb.ask('get-field-schema', { contentTypeUid: 'page' }), {
    fieldSchemaMap: { title: { uid: 'title', field_metadata: { multiline: false } } },
  });
  form.lockedFields.add('page:title');
  t.same(await vb.ask('get-field-schema', { contentTypeUid: 'page' }), {
    fieldSchemaMap: { title: { uid: 'title', field_metadata: { multiline: false, updateRestrict: true } } },
  });
  t.same(asked, ['/__workbench/api/field-schema/pages']);
});

t.test('permissions follow the read-only switch; unknown entries may be edited', async (t) => {
  const { vb, form, entry } = setup(t);
  const ask = (entryUid: string) =>
    vb.ask('get-permissions', { type: 'entry', entryUid, contentTypeUid: 'page', locale: 'en-GB' });
  t.match(await ask('p1'), { update: true, delete: true, publish: true });
  form.readOnly.add(entry);
  t.same(await ask('p1'), { create: true, read: true, update: false, delete: false, publish: false });
  t.match(await ask('other'), { update: true });
});

t.test('field data is the stored value, or the error flag when there is none', async (t) => {
  const { vb } = setup(t);
  const meta = { content_type_uid: 'page', entry_uid: 'p1', locale: 'en-GB' };
  t.same(await vb.ask('get-field-data', { fieldMetadata: meta, entryPath: 'title' }), { fieldData: 'Dishwasher' });
  t.same(await vb.ask('get-field-data', { fieldMetadata: meta, entryPath: 'missing' }), { error: true });
});

t.test('display names come from the last path segment', async (t) => {
  const { vb } = setup(t);
  t.equal(labelOf('body_components.hero_headline'), 'Hero headline');
  t.same(await vb.ask('get-field-display-names', [fieldMetadata('title')]), { 'page.p1.en-GB.title': 'Title' });
});

t.test("the page's edits reach the entry: typed text, and moved or deleted items", async (t) => {
  const { vb, entry, saved } = setup(t);
  await vb.ask('update-field', { data: 'Quiet dishwasher', fieldMetadata: fieldMetadata('title') });
  t.equal(entry.value.title, 'Quiet dishwasher');
  await vb.ask('move-instance', { data: 'items.0', direction: 'next', fieldMetadata: fieldMetadata('items.0') });
  t.same(entry.value.items, ['b', 'a']);
  await vb.ask('delete-instance', { data: 'items.1', fieldMetadata: fieldMetadata('items.1') });
  t.same(entry.value.items, ['b']);
  t.equal(saved.length, 3);
});

t.test('the modals the workbench does not offer are said so', async (t) => {
  const { vb, said } = setup(t);
  await vb.ask('open-asset-modal', {});
  t.same(said, ['open-asset-modal: not offered by the workbench']);
});

t.test('a collaboration change is written back to the server; a read is not', async (t) => {
  installDom(t);
  const puts: unknown[] = [];
  const api = (async (_path: string, init?: RequestInit) => void puts.push(init?.method)) as Api;
  const collab: CollabState = { threads: [], comments: [] };
  const vb = fakeChannel();
  answerCollab(vb.channel, { api, collab, collabUrl: '/__workbench/api/collab', say: () => undefined });
  await vb.ask('collab-fetch-comments', { threadUid: 'none', offset: 0, limit: 10 });
  t.same(puts, []);
  const created = (await vb.ask('collab-create-thread', {
    elementXPath: '/html/body/h1',
    position: { x: 0.5, y: 0.5 },
    author: 'a@b.c',
    createdBy: 'u1',
    pageRoute: '/',
    inviteUid: 'workbench',
  })) as { thread: { _id: string } };
  t.ok(created.thread._id);
  t.same(puts, ['PUT']);
  t.equal(collab.threads.length, 1);
});

t.test(
  'workflow stage (4.x): the stage-lock switch locks the entry; a request for access is then pending',
  async (t) => {
    const { vb, form, entry, said } = setup(t);
    const stage = (entryUid: string) =>
      vb.ask('get-workflow-stage-details', { entryUid, contentTypeUid: 'page', locale: 'en-GB' });
    t.match(await stage('p1'), { permissions: { entry: { update: true } } }, 'unlocked by default');
    form.stageLocked.add(entry);
    t.same(await stage('p1'), {
      stage: { name: 'Review' },
      permissions: { entry: { update: false } },
      requestEditAccess: { canRequest: true, hasPending: false },
    });
    t.equal(
      await vb.ask('open-request-edit-access', { entryUid: 'p1', contentTypeUid: 'page', locale: 'en-GB' }),
      undefined,
    );
    t.match(
      await stage('p1'),
      { requestEditAccess: { canRequest: false, hasPending: true } },
      'pending after the request',
    );
    t.match(said, [/edit access requested for page p1/i]);
    t.match(await stage('other'), { permissions: { entry: { update: true } } }, 'unknown entries stay unlocked');
    t.same(
      await vb.ask('get-resolved-variant-permissions', { content_type_uid: 'page', entry_uid: 'p1', locale: 'en-GB' }),
      { update: true },
      'no variant chosen: every field exists',
    );
  },
);

t.test(
  '4.x: content-type names, the reference map and the dummy field-location apps come from the store',
  async (t) => {
    const { vb, opened } = setup(t);
    t.same(await vb.ask('get-content-type-name', { content_type_uid: 'page_template' }), {
      contentTypeName: 'Page template',
    });
    t.same(await vb.ask('get-reference-map', {}), {
      dishwasher: [{ contentTypeUid: 'page', contentTypeTitle: 'Page', referenceFieldName: 'Template' }],
    });
    const field = { content_type_uid: 'page', entry_uid: 'p1', locale: 'en-GB', fieldPath: 'title', cslpValue: 'x' };
    const { apps } = (await vb.ask('field-location-data', { domEditStack: [field] })) as { apps: { title: string }[] };
    t.same(
      apps.map((app) => app.title),
      ['Payload viewer', 'Field inspector'],
    );
    t.match(apps[0], { fieldPath: 'title', fieldDisplayName: 'Title', entryUid: 'p1', contentTypeUid: 'page' });
    t.same(await vb.ask('field-location-data', { domEditStack: [] }), { apps: [] });
    const chosen = { app: apps[0], position: { top: 1 }, DomEditStack: [field] };
    await vb.ask('field-location-selected-app', chosen);
    t.same(opened, [chosen], 'the app opens with what the page sent');
  },
);

t.test('variants (4.x): the highlight switch is off; a link request is logged and succeeds', async (t) => {
  const { vb, said } = setup(t);
  t.same(await vb.ask('get-highlight-variant-fields-status', undefined), { highlightVariantFields: false });
  t.same(await vb.ask('open-link-variant-modal', { contentTypeUid: 'page' }), { type: 'success', message: 'Linked' });
  t.match(said, [/variant link requested for page/i]);
});

t.test(
  'variants (4.x): the workbench variant has the fields ticked for it; choosing it is told as the editor tells it',
  async (t) => {
    const { vb, form, deps } = setup(t);
    const exists = async (fieldPathWithIndex: string) =>
      (
        (await vb.ask('get-resolved-variant-permissions', {
          content_type_uid: 'page',
          entry_uid: 'p1',
          locale: 'en-GB',
          fieldPathWithIndex,
        })) as { update: boolean }
      ).update;
    deps.variant.selected = VARIANT_UID;
    t.equal(await exists('title'), false, 'a field not ticked is not in the variant');
    const box = form.element.querySelector<HTMLInputElement>('input[name="variant:page.p1.title"]');
    t.ok(box, 'each field has a "variant field" switch');
    if (box) {
      box.checked = true;
      const win = box.ownerDocument.defaultView as unknown as typeof globalThis;
      box.dispatchEvent(new win.Event('change'));
    }
    t.equal(await exists('title'), true, 'a ticked field is');
    t.equal(await exists('items.1'), false, 'the others are not');
    t.same(await vb.ask('get-highlight-variant-fields-status', undefined), { highlightVariantFields: true });
    const sent: [string, unknown][] = [];
    const channel = {
      on: () => undefined,
      send: async (type: string, payload?: unknown) => void sent.push([type, payload]),
    };
    await sendVariant(channel as never, deps.variant, 'en-GB');
    t.same(sent, [
      ['get-locale', { locale: 'en-GB' }],
      ['set-audience-mode', { audienceMode: true }],
      ['get-variant-id', { variant: VARIANT_UID }],
      [
        'show-variant-fields',
        { variant_data: { variant: VARIANT_UID, variantOrder: VARIANT_ORDER, highlightVariantFields: true } },
      ],
    ]);
    deps.variant.selected = undefined;
    t.equal(await exists('items.1'), true, 'back on the base entry every field exists');
    sent.length = 0;
    await sendVariant(channel as never, deps.variant, 'en-GB');
    t.same(sent.slice(1), [
      ['set-audience-mode', { audienceMode: false }],
      ['get-variant-id', { variant: undefined }],
      ['remove-variant-fields', {}],
    ]);
  },
);
