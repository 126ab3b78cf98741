import t from 'tap';
import { bare, SCHEMA, start, TITLE } from './test-builder.ts';

/** What the editor asks of the builder window, and the variant watch it starts. */

t.test('editor requests: entries on the page, draft and variant marks, hide-focus-overlay', async (t) => {
  const { win, editor, send, advance } = bare(
    t,
    `<h1 data-cslp="${TITLE}">AquaSense</h1><p data-cslp="page_template.dw.en-GB.body.0">x</p>
    <p data-cslp="v2:page_template.dw_cs1.en-GB.body.1">y</p>`,
  );
  const updates: unknown[] = [];
  editor.on('get-field-schema', () => ({ fieldSchemaMap: SCHEMA }));
  editor.on('update-field', (event) => {
    updates.push(event.data);
  });
  t.same(await send('get-entries-in-current-page'), {
    entriesInCurrentPage: [
      { entryUid: 'page-4711', contentTypeUid: 'page', locale: 'en-GB' },
      { entryUid: 'dw', contentTypeUid: 'page_template', locale: 'en-GB' },
    ],
  });
  await send('show-draft-fields', { fields: [TITLE] });
  t.ok(win.document.querySelector('h1')?.classList.contains('visual-builder__draft-field'));
  await send('remove-draft-fields');
  t.notOk(win.document.querySelector('.visual-builder__draft-field'));
  await send('show-variant-fields', { variant_data: { variant: 'cs1', highlightVariantFields: true } });
  const [, base, variant] = Array.from(win.document.querySelectorAll('[data-cslp]'));
  t.ok(variant?.classList.contains('visual-builder__variant-field'));
  t.ok(variant?.classList.contains('visual-builder__variant-field--outline'));
  t.ok(base?.classList.contains('visual-builder__base-field'));
  await send('remove-variant-fields', { onlyHighlighted: true });
  t.notOk(variant?.classList.contains('visual-builder__variant-field--outline'));
  t.ok(variant?.classList.contains('visual-builder__variant-field'));

  const title = win.document.querySelector('h1') as HTMLElement;
  title.click();
  await advance(80);
  title.textContent = 'Changed';
  title.dispatchEvent(new win.Event('input', { bubbles: true }));
  await send('hide-focus-overlay', { noTrigger: true });
  t.equal(title.textContent, 'AquaSense', 'noTrigger puts the text back');
  t.same(updates, [], 'and sends no update-field');
});

t.test('update-discussion-id-for-focus-field changes the focused field only', async (t) => {
  const comment = '[data-testid="visual-builder__focused-toolbar__multiple-field-toolbar__comment-button"]';
  const { el, shadow, editor, advance } = start(t, {
    answers: { 'get-discussion-id-for-comment-modal': () => ({ uid: 'new' }) },
  });
  el(TITLE).click();
  await advance(100);
  t.equal(shadow.querySelector(comment)?.getAttribute('aria-label'), 'Add comment');
  const update = { entryId: 'page-4711', contentTypeId: 'page', discussion: { uid: 'd-9' } };
  await editor.send('update-discussion-id-for-focus-field', { ...update, fieldPath: 'price' });
  t.equal(shadow.querySelector(comment)?.getAttribute('aria-label'), 'Add comment', 'another field: unchanged');
  await editor.send('update-discussion-id-for-focus-field', { ...update, fieldPath: 'title' });
  t.equal(shadow.querySelector(comment)?.getAttribute('aria-label'), 'View comments');
});

t.test('hide-focus-overlay from collaboration hands the page to comments; without it the builder stays', async (t) => {
  const { win, el, editor, config, types, shadow, advance } = start(t);
  el(TITLE).click();
  await advance(80);
  await editor.send('hide-focus-overlay', {});
  t.notOk(shadow.querySelector('.visual-builder__overlay__wrapper.visible'), 'deselected');
  t.notOk(config.collab.enable, 'collaboration untouched');
  el(TITLE).click();
  await advance(80);
  t.ok(shadow.querySelector('.visual-builder__overlay__wrapper.visible'), 'a click focuses again');

  await editor.send('hide-focus-overlay', { fromCollab: true });
  t.notOk(shadow.querySelector('.visual-builder__overlay__wrapper.visible'), 'deselected');
  t.ok(config.collab.enable && config.collab.pauseFeedback, 'collaboration on and paused');
  const clicks = types().filter((type) => type === 'mouse-click').length;
  el(TITLE).click();
  el(TITLE).dispatchEvent(new win.MouseEvent('mousemove', { bubbles: true, clientX: 5, clientY: 5 }));
  await advance(80);
  t.notOk(shadow.querySelector('.visual-builder__overlay__wrapper.visible'), 'clicks no longer focus');
  t.equal(types().filter((type) => type === 'mouse-click').length, clicks, 'nor send mouse-click');
  t.ok((shadow.querySelector('.visual-builder__hover-outline') as HTMLElement).hidden, 'no hover outline');
});

t.test('variant-patch-update: in audience mode, re-tagged fields are marked for 8 s', async (t) => {
  const { win, editor, livePreviewEditor, advance } = start(t);
  const main = win.document.querySelector('main') as HTMLElement;
  main.insertAdjacentHTML('beforeend', '<p id="f" data-cslp="page.page-4711.en-GB.summary">s</p>');
  const field = win.document.getElementById('f') as HTMLElement;
  const patch = {
    highlightVariantFields: true,
    expectedCSLPValues: { variant: 'v2:page.page-4711_cs1.en-GB.summary', base: 'page.page-4711.en-GB.summary' },
  };
  await livePreviewEditor.send('variant-patch-update', patch);
  field.setAttribute('data-cslp', patch.expectedCSLPValues.variant);
  await advance(0);
  t.notOk(field.classList.contains('visual-builder__variant-field'), 'outside audience mode nothing happens');

  await editor.send('set-audience-mode', { audienceMode: true });
  await editor.send('get-variant-id', { variant: 'cs1' });
  field.setAttribute('data-cslp', patch.expectedCSLPValues.base);
  // The watch's 8 s run on the fake clock.
  await livePreviewEditor.send('variant-patch-update', patch);
  t.ok(field.classList.contains('visual-builder__base-field'), 'the field as it is now');
  field.setAttribute('data-cslp', patch.expectedCSLPValues.variant);
  await advance(0);
  t.ok(field.classList.contains('visual-builder__variant-field'), 'a re-tagged field becomes a variant field');
  t.ok(field.classList.contains('visual-builder__variant-field--outline'), 'highlighted');
  t.notOk(field.classList.contains('visual-builder__base-field'));
  main.insertAdjacentHTML('beforeend', '<p id="g" data-cslp="v2:page.page-4711_cs2.en-GB.other">o</p>');
  await advance(0);
  t.ok(win.document.getElementById('g')?.classList.contains('visual-builder__disabled-variant-field'), 'new elements');

  await advance(7999);
  field.setAttribute('data-cslp', patch.expectedCSLPValues.base);
  await advance(0);
  t.ok(field.classList.contains('visual-builder__base-field'), 'still watched just before 8 s');
  field.setAttribute('data-cslp', patch.expectedCSLPValues.variant);
  await advance(0);
  await advance(1);
  field.setAttribute('data-cslp', patch.expectedCSLPValues.base);
  await advance(0);
  t.ok(field.classList.contains('visual-builder__variant-field'), 'after 8 s the watch has ended');
});

t.test('toggle-scroll (4.x) stops the page scrolling and restores it', async (t) => {
  const { win, editor } = start(t);
  win.document.body.style.overflow = '';
  t.equal(await editor.send('toggle-scroll', { scroll: false }), undefined, 'answered, not refused');
  t.equal(win.document.body.style.overflow, 'hidden');
  await editor.send('toggle-scroll', { scroll: true });
  t.equal(win.document.body.style.overflow, '', 'the page’s own value again');
  await editor.send('toggle-scroll', { scroll: false });
  await editor.send('toggle-scroll', {});
  t.equal(win.document.body.style.overflow, '', 'anything but scroll: false lets it scroll');
});
