import type { Frame, Page } from 'playwright-core';
import type { Test } from 'tap';
import { startEditorSuite } from './editor.ts';

/**
 * What the visual-builder browser tests share: the demo page they frame, its field tags, the
 * builder's surfaces, and a test editor that answers `get-field-schema` with a schema for the demo
 * content types and records what the layer sends.
 */

export const DISHWASHER = '/cs/kitchen/aquasense-60-dishwasher-4711';
export const T = 'page_template.dishwasher.en-GB';
export const tag = (path: string) => `[data-cslp="${T}.${path}"]`;
export const HEADLINE = tag('body_components.0.headline');
export const SUBLINE = tag('body_components.0.subline');
export const PRICE = tag('body_components.1.price.amount');
export const FAQ_0 = tag('body_components.3.items.0');
export const FAQ_1 = tag('body_components.3.items.1');
export const TITLE = '[data-cslp="page.page-4711.en-GB.title"]';
export const IMAGE = tag('body_components.0.image');
export const PRODUCT = tag('body_components.4.products.0.name');
export const PSEUDO = '.visual-builder__pseudo-editable-element';
/** Playwright's CSS engine pierces the builder's open shadow root. */
export const UI = '.visual-builder__container';
export const TOOLBAR = `${UI} .visual-builder__focused-toolbar`;
export const REASON = `${UI} [data-testid="visual-builder__focused-toolbar__disabled-reason"]`;
export const BAR = 'visual-builder__focused-toolbar__multiple-field-toolbar__';

declare global {
  interface Window {
    /** The editor's answers to get-field-schema and get-permissions; tests change them. */
    schema: Record<string, Record<string, Record<string, unknown>>>;
    permissions: Record<string, boolean>;
  }
}

/** The schema the test editor answers for the demo's content types (fieldPath → schema). */
const SCHEMA = {
  page: { title: { data_type: 'text', uid: 'title', display_name: 'Page title' } },
  page_template: {
    body_components: { data_type: 'blocks', uid: 'body_components', display_name: 'Body', multiple: true },
    'body_components.headline': { data_type: 'text', uid: 'headline', display_name: 'Headline' },
    'body_components.image': { data_type: 'file', uid: 'image', display_name: 'Image' },
    'body_components.products.name': { data_type: 'reference', uid: 'name', display_name: 'Product' },
    'body_components.title': { data_type: 'text', uid: 'title', display_name: 'Title' },
    'body_components.price.amount': { data_type: 'number', uid: 'amount', display_name: 'Price' },
    'body_components.items': {
      data_type: 'group',
      uid: 'items',
      display_name: 'Questions',
      multiple: true,
      max_instance: 5,
    },
    'body_components.items.question': {
      data_type: 'text',
      uid: 'question',
      display_name: 'Question',
      field_metadata: { updateRestrict: true },
    },
    'body_components.items.answer': {
      data_type: 'text',
      uid: 'answer',
      display_name: 'Answer',
      non_localizable: true,
      field_metadata: { multiline: true },
    },
    'footer_components.groups.title': {
      data_type: 'text',
      uid: 'title',
      display_name: 'Group title',
      field_metadata: { isUnlinkedVariant: true },
    },
  },
};

/**
 * The editor's answers (test/e2e/editor.ts runs them in its page). Query parameters: `failAdd`
 * leaves add-instance unanswered, so the library answers with an error; `discussion` is the answer
 * to get-discussion-id-for-comment-modal, which otherwise fails and the layer falls back.
 */
const EDITOR = `
  const { lp, vb } = channels;
  window.schema = ${JSON.stringify(SCHEMA)};
  window.permissions = { create: true, read: true, update: true, delete: true, publish: true };
  record(lp, 'init', () => ({ contentTypeUid: 'page', entryUid: '4711', windowType: 'builder' }));
  record(vb, 'init', () => ({ windowType: 'builder', stackDetails: { masterLocale: 'en-us' } }));
  record(vb, 'get-field-schema', (data) => ({ fieldSchemaMap: schema[data.contentTypeUid] ?? {} }));
  record(vb, 'get-permissions', (data) => data.contentTypeUid === 'page' ? { ...permissions, update: false } : permissions);
  record(vb, 'get-field-display-names', (list) =>
    Object.fromEntries(list.flatMap((c) => {
      const name = schema[c.content_type_uid]?.[c.fieldPath]?.display_name;
      return name ? [[c.cslpValue, name]] : [];
    })));
  record(vb, 'get-field-data', (data) => ({ fieldData: data.entryPath === 'body_components.1.price.amount' ? 779 : '' }));
  record(vb, 'get-field-variant-status', () => ({}));
  if (!params.has('failAdd')) record(vb, 'add-instance', () => ({}));
  if (params.has('discussion')) record(vb, 'get-discussion-id-for-comment-modal', () => JSON.parse(params.get('discussion')));
  // 4.x locks: "stage" is the answer to get-workflow-stage-details, "variantPermission" to
  // get-resolved-variant-permissions; without them the library answers with an error.
  if (params.has('stage')) record(vb, 'get-workflow-stage-details', () => JSON.parse(params.get('stage')));
  if (params.has('variantPermission'))
    record(vb, 'get-resolved-variant-permissions', () => JSON.parse(params.get('variantPermission')));
  record(vb, 'open-request-edit-access');
  // 4.x hover toolbar and field-location apps: "labels" answers get-content-type-name and
  // get-reference-map (the template is referenced from the page's Template field); "apps" is the
  // answer to field-location-data. Without them the library answers with an error.
  if (params.has('labels')) {
    record(vb, 'get-content-type-name', (data) => ({
      contentTypeName: data.content_type_uid === 'page_template' ? 'Page template' : 'Page',
    }));
    record(vb, 'get-reference-map', () => ({
      dishwasher: [{ contentTypeUid: 'page', contentTypeTitle: 'Page', referenceFieldName: 'Template' }],
    }));
  }
  if (params.has('apps')) record(vb, 'field-location-data', () => JSON.parse(params.get('apps')));
  record(vb, 'field-location-selected-app');
  for (const type of ['send-variant-and-locale', 'mouse-click', 'focus-field', 'sync-field', 'update-field',
    'move-instance', 'delete-instance', 'open-asset-modal', 'open-field-edit-modal', 'open-reference-modal',
    'open-field-comment-modal'])
    record(vb, type);
  for (const type of ['check-entry-page', 'url-change']) record(lp, type);`;

/**
 * Starts the test editor for a builder test file (call with top-level await). `openBuilder` frames the
 * dishwasher page in builder mode and resolves once the builder UI is there.
 */
export async function startBuilderSuite(t: { teardown(fn: () => unknown): void }) {
  const editor = await startEditorSuite(t, { script: EDITOR });
  async function openBuilder(t: Test, query: [string, string][] = []): Promise<{ page: Page; site: Frame }> {
    const url = editor.server.url(
      'uk',
      `${DISHWASHER}?live_preview=builder-e2e&content_type_uid=page&entry_uid=4711&builder=true`,
    );
    const opened = await editor.open(t, url, { until: 'send-variant-and-locale', query });
    await opened.site.waitForSelector(UI, { state: 'attached', timeout: 10_000 });
    return opened;
  }
  return { editor, openBuilder };
}
export async function focusField(site: Frame, selector: string) {
  await site.click(selector);
  await site.waitForSelector(`${TOOLBAR}:not([hidden])`, { timeout: 5_000 });
}

export async function pressEscape(site: Frame) {
  // Keys go to the focused frame: a dispatched click does not focus it.
  await site.evaluate(() => window.focus());
  await site.press('body', 'Escape');
  await site.waitForSelector(`${TOOLBAR}[hidden]`, { state: 'attached', timeout: 5_000 });
}
