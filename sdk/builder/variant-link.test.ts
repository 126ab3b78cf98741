import t from 'tap';
import { start, TITLE } from './test-builder.ts';
import { TEXTS } from './text.ts';

/**
 * 4.x variant features against the real editor library: `variantOrder` marks lower-order variant
 * fields, the highlight switch's state is asked in a builder window and obeyed when the page
 * re-renders, and an unlinked field the user may link offers the editor's link dialog.
 */

const VARIANT_TAG = 'v2:page.page-4711_cs0.en-GB.summary';

t.test('show-variant-fields with variantOrder marks a lower-order variant’s field, editable', async (t) => {
  const s = start(t, { answers: { 'get-resolved-variant-permissions': () => ({ update: true }) } });
  s.win.document.querySelector('main')?.insertAdjacentHTML('beforeend', `<p data-cslp="${VARIANT_TAG}">s</p>`);
  await s.editor.send('set-audience-mode', { audienceMode: true });
  await s.editor.send('get-variant-id', { variant: 'cs1' });
  await s.editor.send('get-locale', { locale: 'en-GB' });
  await s.editor.send('show-variant-fields', {
    variant_data: { variant: 'cs1', highlightVariantFields: false, variantOrder: ['cs0', 'cs1'] },
  });
  const field = s.el(VARIANT_TAG);
  t.same([...field.classList].sort(), ['visual-builder__lower-order-variant-field', 'visual-builder__variant-field']);
  field.click();
  await s.advance(80);
  t.equal(s.shadow.querySelector('.tb-reason')?.textContent, undefined, 'no reason: a lower-order field is editable');
  await s.editor.send('remove-variant-fields', {});
  t.same([...field.classList], [], 'removed with the other variant classes');
});

t.test('a failed variant permission locks a lower-order variant’s field', async (t) => {
  const s = start(t, { answers: { 'get-resolved-variant-permissions': () => ({ update: true, error: true }) } });
  s.win.document.querySelector('main')?.insertAdjacentHTML('beforeend', `<p data-cslp="${VARIANT_TAG}">s</p>`);
  await s.editor.send('set-audience-mode', { audienceMode: true });
  await s.editor.send('show-variant-fields', {
    variant_data: { variant: 'cs1', highlightVariantFields: false, variantOrder: ['cs0', 'cs1'] },
  });
  s.el(VARIANT_TAG).click();
  await s.advance(80);
  t.equal(s.shadow.querySelector('.tb-reason')?.textContent, TEXTS.variantMismatch);
});

t.test('in a builder window the highlight state is asked; on, re-rendered variant fields are outlined', async (t) => {
  const s = start(t, {
    windowType: 'builder',
    answers: { 'get-highlight-variant-fields-status': () => ({ highlightVariantFields: true }) },
  });
  await s.advance(20);
  t.same(
    s.received.filter((r) => r.type === 'get-highlight-variant-fields-status'),
    [{ type: 'get-highlight-variant-fields-status', data: undefined }],
    'asked once, without a payload',
  );
  await s.editor.send('get-variant-id', { variant: 'cs1' });
  s.win.document
    .querySelector('main')
    ?.insertAdjacentHTML('beforeend', '<p data-cslp="v2:page.page-4711_cs1.en-GB.summary">s</p>');
  await s.advance(150);
  const field = s.el('v2:page.page-4711_cs1.en-GB.summary');
  t.ok(field.classList.contains('visual-builder__variant-field--outline'), 'outlined as the editor’s switch says');
  t.ok(s.el(TITLE).classList.contains('visual-builder__base-field'));
});

t.test(
  'off, or asked of a 3.2.5 editor, nothing is re-marked; outside a builder window nothing is asked',
  async (t) => {
    const refused = start(t, { windowType: 'builder' });
    await refused.editor.send('get-variant-id', { variant: 'cs1' });
    refused.win.document
      .querySelector('main')
      ?.insertAdjacentHTML('beforeend', '<p data-cslp="v2:page.page-4711_cs1.en-GB.summary">s</p>');
    await refused.advance(150);
    t.same([...refused.el('v2:page.page-4711_cs1.en-GB.summary').classList], []);
    const share = start(t, {
      windowType: 'preview-share',
      answers: { 'get-highlight-variant-fields-status': () => ({}) },
    });
    await share.advance(20);
    t.notOk(share.types().includes('get-highlight-variant-fields-status'));
  },
);

t.test(
  'get-variant-id re-marks the page for a 4.x editor (it answered the highlight status), never for a 3.2.5 editor',
  async (t) => {
    const variantOf = (s: ReturnType<typeof start>) => {
      s.win.document.querySelector('main')?.insertAdjacentHTML('beforeend', `<p data-cslp="${VARIANT_TAG}">s</p>`);
      return s.el(VARIANT_TAG);
    };
    const today = start(t, {
      windowType: 'builder',
      answers: { 'get-highlight-variant-fields-status': () => ({ highlightVariantFields: false }) },
    });
    const lower = variantOf(today);
    await today.advance(20);
    await today.editor.send('show-variant-fields', {
      variant_data: { variant: 'cs1', highlightVariantFields: false, variantOrder: ['cs0', 'cs1'] },
    });
    await today.editor.send('remove-variant-fields', {});
    await today.editor.send('get-variant-id', { variant: 'cs1' });
    t.same([...lower.classList].sort(), ['visual-builder__lower-order-variant-field', 'visual-builder__variant-field']);
    t.same([...today.el(TITLE).classList], ['visual-builder__base-field']);

    const older = start(t, { windowType: 'builder' });
    const field = variantOf(older);
    await older.advance(20);
    await older.editor.send('get-variant-id', { variant: 'cs1' });
    t.same([...field.classList], [], 'a 3.2.5 editor sees no mark it did not ask for');
    t.same([...older.el(TITLE).classList], []);
  },
);

t.test(
  'an unlinked field the user may link offers the link dialog; linked, it is asked about and focused anew',
  async (t) => {
    let linked = false;
    const schema = () => ({
      fieldSchemaMap: {
        title: {
          data_type: 'text',
          uid: 'title',
          display_name: 'Title',
          field_metadata: linked ? {} : { isUnlinkedVariant: true, canLinkVariant: true },
        },
      },
    });
    const s = start(t, {
      answers: {
        'get-field-schema': schema,
        'open-link-variant-modal': () => {
          linked = true;
          return { type: 'success', message: 'Linked' };
        },
      },
    });
    s.el(TITLE).click();
    await s.advance(80);
    t.equal(s.shadow.querySelector('.tb-reason')?.textContent, TEXTS.unlinkedCanLink);
    const schemas = s.types().filter((type) => type === 'get-field-schema').length;
    (s.shadow.querySelector('[data-testid="visual-builder__focused-toolbar__link-variant"]') as HTMLElement).click();
    await s.advance(80);
    t.same(
      s.received.filter((r) => r.type === 'open-link-variant-modal'),
      [{ type: 'open-link-variant-modal', data: { contentTypeUid: 'page' } }],
      '4.4.1’s payload',
    );
    t.equal(s.types().filter((type) => type === 'get-field-schema').length, schemas + 1, 'the schema is asked again');
    t.equal(s.shadow.querySelector('.tb-reason')?.textContent, undefined, 'focused anew, now editable');
    t.ok(s.el(TITLE).hasAttribute('contenteditable'));
  },
);

t.test('a link dialog closed or failed changes nothing', async (t) => {
  const s = start(t, {
    schema: { title: { data_type: 'text', field_metadata: { isUnlinkedVariant: true, canLinkVariant: true } } },
    answers: { 'open-link-variant-modal': () => ({ type: 'error', message: 'closed' }) },
  });
  s.el(TITLE).click();
  await s.advance(80);
  const schemas = s.types().filter((type) => type === 'get-field-schema').length;
  (s.shadow.querySelector('[data-testid="visual-builder__focused-toolbar__link-variant"]') as HTMLElement).click();
  await s.advance(80);
  t.equal(s.types().filter((type) => type === 'get-field-schema').length, schemas);
  t.equal(s.shadow.querySelector('.tb-reason')?.textContent, TEXTS.unlinkedCanLink);
});
