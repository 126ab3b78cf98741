import t from 'tap';
import { bare, PRICE, SCHEMA, start, TITLE } from './test-builder.ts';

/** The focused field's toolbar: the invalid-tag badge, parent labels, the variant revert menu, comments, icons. */

t.test('a field missing from the schema shows the invalid-tag badge', async (t) => {
  const { el, shadow, advance } = start(t, { schema: { price: SCHEMA.price } });
  el(TITLE).click();
  await advance(80);
  const badge = shadow.querySelector('[data-testid="visual-builder__focused-toolbar__error"]');
  t.equal(badge?.textContent, 'Error');
  t.match(badge?.getAttribute('data-tooltip'), /Invalid CSLP tag\nThe CSLP is invalid or incorrectly generated\./);
});

t.test('toolbar: parent labels focus the parent; the variant revert menu sends the action', async (t) => {
  const body = 'v2:page_template.dw_cs1.en-GB.body.0';
  const { win, editor, advance } = bare(
    t,
    `<section data-cslp="${body}"><h2 data-cslp="${body}.headline">H</h2></section>`,
  );
  const received: { type: string; data: unknown }[] = [];
  editor.on('get-field-schema', () => ({
    fieldSchemaMap: {
      body: { data_type: 'blocks', multiple: true, display_name: 'Body' },
      'body.headline': { data_type: 'text', display_name: 'Headline' },
    },
  }));
  editor.on('get-field-display-names', (event) =>
    Object.fromEntries(
      (event.data as { cslpValue: string; fieldPath: string }[]).map((c) => [c.cslpValue, c.fieldPath]),
    ),
  );
  editor.on('get-field-variant-status', () => ({ isBaseModified: true, isOrderChanged: true }));
  for (const type of ['focus-field', 'send-variant-revert-action-trigger'])
    editor.on(type, (event) => {
      received.push({ type, data: event.data });
    });
  const shadow = win.document.querySelector('.visual-builder__container')?.shadowRoot as ShadowRoot;
  (win.document.querySelector('h2') as HTMLElement).click();
  await advance(100);
  t.match(shadow.querySelector('.tb-label')?.textContent, /body › body\.headline/);
  const revert = Array.from(shadow.querySelectorAll('.tb-menu button')).map((b) => b.textContent);
  t.same(revert, ['Revert to base entry value', 'Restore sorted instances']);
  (shadow.querySelector('.tb-menu button') as HTMLButtonElement).click();
  await advance(50);
  t.same(received.find((r) => r.type === 'send-variant-revert-action-trigger')?.data, {
    fieldDataName: 'body.0.headline',
    action: 'revert_to_base_entry_value',
    euid: 'dw',
    ct_uid: 'page_template',
    locale: 'en-GB',
  });
  (shadow.querySelector('.tb-parents button') as HTMLButtonElement).click();
  await advance(100);
  const focuses = received.filter((r) => r.type === 'focus-field');
  t.match(focuses.at(-1)?.data, { DOMEditStack: [{ cslpValue: body }] }, 'the parent is focused');
});

t.test('comments: the toolbar button opens the field comment modal with its discussion', async (t) => {
  const comment = '[data-testid="visual-builder__focused-toolbar__multiple-field-toolbar__comment-button"]';
  const discussionRequests: unknown[] = [];
  const existing = start(t, {
    answers: {
      'get-discussion-id-for-comment-modal': (data) => {
        discussionRequests.push(data);
        return { uid: 'd-1', title: 'Title' };
      },
    },
  });
  existing.el(TITLE).click();
  await existing.advance(100);
  t.match(discussionRequests[0], { fieldMetadata: { cslpValue: TITLE }, fieldSchema: SCHEMA.title });
  const button = existing.shadow.querySelector(comment) as HTMLButtonElement;
  t.equal(button.getAttribute('aria-label'), 'View comments');
  button.click();
  await existing.advance(50);
  const opened = existing.received.find((r) => r.type === 'open-field-comment-modal')?.data;
  t.same(opened, {
    fieldMetadata: (existing.received[0]?.data as { fieldMetadata?: unknown } | undefined)?.fieldMetadata,
    discussion: { uid: 'd-1', title: 'Title' },
    fieldSchema: SCHEMA.title,
  });
  t.match(opened, { fieldMetadata: { cslpValue: TITLE } });

  // The editor does not answer the request (no handler): a new discussion.
  const failing = start(t);
  failing.el(TITLE).click();
  await failing.advance(100);
  const fallback = failing.shadow.querySelector(comment) as HTMLButtonElement;
  t.equal(fallback.getAttribute('aria-label'), 'Add comment');
  fallback.click();
  await failing.advance(50);
  t.match(failing.received.find((r) => r.type === 'open-field-comment-modal')?.data, { discussion: { uid: 'new' } });

  // The editor says there are no comments for this field.
  const none = start(t, { answers: { 'get-discussion-id-for-comment-modal': () => ({ error: true }) } });
  none.el(TITLE).click();
  await none.advance(100);
  t.notOk(none.shadow.querySelector(comment), 'no button');
  t.ok(none.shadow.querySelector('[data-testid="visual-builder-form"]'), 'the rest of the toolbar is there');
});

t.test('field-type icons on the cursor and the toolbar label', async (t) => {
  const { win, el, shadow, advance } = start(t);
  el(PRICE).dispatchEvent(new win.MouseEvent('mousemove', { bubbles: true, clientX: 5, clientY: 5 }));
  await advance(80);
  const cursorPath = shadow.querySelector('.visual-builder__cursor-icon svg path')?.getAttribute('d');
  t.equal(cursorPath, 'M6 2 4 14M12 2l-2 12M2 6h12M2 10h12', 'the number icon');
  t.match(shadow.querySelector('.visual-builder__cursor-icon')?.textContent, 'Number');
  el(TITLE).click();
  await advance(80);
  t.equal(
    shadow.querySelector('.tb-label svg path')?.getAttribute('d'),
    'M3 3h10M8 3v10',
    'the single-line icon in the label',
  );
});

t.test('the toolbar’s button names come from the page’s texts (its language), English without them', async (t) => {
  const body = 'page.page-4711.en-GB.body';
  const { win, config, editor, advance } = bare(
    t,
    `<section data-cslp="${body}.0">A</section><section data-cslp="${body}.1">B</section>`,
  );
  editor.on('get-field-schema', () => ({
    fieldSchemaMap: { body: { data_type: 'blocks', multiple: true, display_name: 'Body' } },
  }));
  const shadow = win.document.querySelector('.visual-builder__container')?.shadowRoot as ShadowRoot;
  const names = () =>
    [...shadow.querySelectorAll('.visual-builder__focused-toolbar button[aria-label]')].map((b) =>
      b.getAttribute('aria-label'),
    );
  const [first, second] = [...win.document.querySelectorAll('section')] as HTMLElement[];
  first?.click();
  await advance(100);
  t.same(names(), ['Move up', 'Move down', 'Form', 'Add comment', 'Delete'], 'English');
  config.messages = {
    moveUp: 'Nach oben verschieben',
    moveDown: 'Nach unten verschieben',
    form: 'Formular',
    addComment: 'Kommentar hinzufügen',
    delete: 'Löschen',
  };
  second?.click();
  await advance(100);
  t.same(
    names(),
    ['Nach oben verschieben', 'Nach unten verschieben', 'Formular', 'Kommentar hinzufügen', 'Löschen'],
    'the page’s language',
  );
});
