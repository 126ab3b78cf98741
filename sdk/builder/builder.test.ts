import { mock } from 'node:test';
import t, { type Test } from 'tap';
import { baseConfig } from '../config/defaults.ts';
import type { PageWindow } from '../dom.ts';
import { EDITOR_ORIGIN, framedSite, settle } from '../test-editor.ts';
import { createChannel } from '../transport/channel.ts';
import { createPeer } from '../transport/peer.ts';
import { startBuilder } from './builder.ts';

/**
 * The select/edit loop in happy-dom against the real editor library: hover, click to focus,
 * in-place editing with throttled sync-field, and update-field on Escape. Browser behaviour
 * (layout, the cursor, real typing) is covered in test/e2e/builder.test.ts.
 */

const PAGE = 'https://www.halden.co.uk/cs/kitchen/aquasense-60-dishwasher-4711?live_preview=h1&builder=true';
const TITLE = 'page.page-4711.en-GB.title';
const PRICE = 'page.page-4711.en-GB.price';

const SCHEMA = {
  title: { data_type: 'text', uid: 'title', display_name: 'Title' },
  price: { data_type: 'number', uid: 'price', display_name: 'Price' },
};

function start(
  t: Test,
  options: { schema?: unknown; update?: boolean; answers?: Record<string, (data: unknown) => unknown> } = {},
) {
  const framed = framedSite({ url: PAGE });
  const win = framed.site;
  win.document.body.innerHTML = `<main><h1 data-cslp="${TITLE}">AquaSense</h1><data data-cslp="${PRICE}">779</data><p>plain</p></main>`;
  const editor = framed.editor('visual-builder');
  const received: { type: string; data: unknown }[] = [];
  const record = (type: string, answer?: (data: unknown) => unknown) =>
    editor.on(type, (event) => {
      received.push({ type, data: event.data });
      return answer?.(event.data);
    });
  record('get-field-schema', () => ({ fieldSchemaMap: options.schema ?? SCHEMA }));
  record('get-permissions', () => ({
    create: true,
    read: true,
    update: options.update ?? true,
    delete: true,
    publish: true,
  }));
  record('get-field-display-names', () => ({ [TITLE]: 'Title' }));
  for (const type of [
    'mouse-click',
    'focus-field',
    'sync-field',
    'update-field',
    'get-field-data',
    'get-field-variant-status',
    'open-field-comment-modal',
    ...Object.keys(options.answers ?? {}),
  ])
    record(type, options.answers?.[type]);
  const config = baseConfig();
  config.stackDetails.masterLocale = 'en-GB';
  const peer = createPeer(win, [EDITOR_ORIGIN]);
  const channel = createChannel('visual-builder', win, peer);
  const livePreview = createChannel('live-preview', win, peer);
  const builder = startBuilder({ win, config, channel, livePreview });
  t.teardown(async () => {
    builder.destroy();
    channel.destroy();
    livePreview.destroy();
    await framed.close();
  });
  const shadow = win.document.querySelector('.visual-builder__container')?.shadowRoot as ShadowRoot;
  const types = () => received.map((r) => r.type);
  return {
    win,
    config,
    editor,
    livePreviewEditor: framed.editor('live-preview'),
    received,
    types,
    shadow,
    el: (tag: string) => win.document.querySelector(`[data-cslp="${tag}"]`) as HTMLElement,
  };
}

t.test('hovering a field outlines it and shows its field type on the cursor', async (t) => {
  const { win, shadow, el, types } = start(t);
  el(TITLE).dispatchEvent(new win.MouseEvent('mousemove', { bubbles: true, clientX: 5, clientY: 5 }));
  await settle(80);
  t.notOk((shadow.querySelector('.visual-builder__hover-outline') as HTMLElement).hidden, 'outline shown');
  t.equal(shadow.querySelector('.visual-builder__cursor')?.getAttribute('data-icon'), 'singleline');
  t.ok(shadow.querySelector('.visual-builder__cursor')?.classList.contains('visible'));
  t.same(types().sort(), ['get-field-schema', 'get-permissions'], 'hover asks for the schema and permissions only');
});

t.test('a field without update permission gets the grey outline and the reason in the toolbar', async (t) => {
  const { win, shadow, el } = start(t, { update: false });
  el(TITLE).dispatchEvent(new win.MouseEvent('mousemove', { bubbles: true }));
  await settle(80);
  t.ok(shadow.querySelector('.visual-builder__hover-outline--disabled'), 'grey outline');
  el(TITLE).click();
  await settle(80);
  t.match(shadow.querySelector('.tb-reason')?.textContent, 'You do not have permission to edit this entry');
  t.notOk(el(TITLE).hasAttribute('contenteditable'), 'not editable');
});

t.test('click focuses, typing syncs at most every 300 ms, Escape sends update-field', async (t) => {
  const { win, received, types, shadow, el } = start(t);
  const title = el(TITLE);
  title.click();
  await settle(80);
  t.equal(types()[0], 'mouse-click', 'mouse-click goes first');
  t.same(received[0]?.data, {
    cslpData: TITLE,
    fieldMetadata: {
      content_type_uid: 'page',
      entry_uid: 'page-4711',
      locale: 'en-GB',
      variant: undefined,
      cslpValue: TITLE,
      fieldPath: 'title',
      fieldPathWithIndex: 'title',
      multipleFieldMetadata: { index: -1, parentDetails: null },
      instance: { fieldPathWithIndex: 'title' },
    },
  });
  const focus = received.find((r) => r.type === 'focus-field')?.data as { DOMEditStack: { cslpValue: string }[] };
  t.same(
    focus.DOMEditStack.map((c) => c.cslpValue),
    [TITLE],
  );
  t.equal(title.getAttribute('contenteditable'), 'true');
  t.equal(title.getAttribute('data-cslp-field-type'), 'singleline');
  t.ok(shadow.querySelector('.visual-builder__overlay__wrapper.visible'), 'overlay shown');
  t.match(shadow.querySelector('[data-testid="visual-builder__focused-toolbar__field-label"]')?.textContent, 'Title');

  for (const text of ['AquaSense 6', 'AquaSense 60', 'AquaSense 60!']) {
    title.textContent = text;
    title.dispatchEvent(new win.Event('input', { bubbles: true }));
  }
  await settle(50);
  t.same(
    received.filter((r) => r.type === 'sync-field').map((r) => (r.data as { data: string }).data),
    ['AquaSense 6'],
    'only the leading sync within 300 ms',
  );
  await settle(350);
  t.same(
    received.filter((r) => r.type === 'sync-field').map((r) => (r.data as { data: string }).data),
    ['AquaSense 6', 'AquaSense 60!'],
    'the trailing sync carries the latest text',
  );
  win.document.dispatchEvent(new win.KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
  await settle(50);
  const update = received.find((r) => r.type === 'update-field')?.data as {
    data: string;
    fieldMetadata: { cslpValue: string };
  };
  t.equal(update.data, 'AquaSense 60!');
  t.equal(update.fieldMetadata.cslpValue, TITLE);
  t.notOk(title.hasAttribute('contenteditable'));
  t.notOk(title.hasAttribute('data-cslp-field-type'));
  t.notOk(shadow.querySelector('.visual-builder__overlay__wrapper.visible'), 'overlay gone');
});

t.test('deselecting without input sends no update-field; an overlay click deselects', async (t) => {
  const { win, types, shadow, el } = start(t);
  el(TITLE).click();
  await settle(80);
  (shadow.querySelector('.visual-builder__overlay--top') as HTMLElement).click();
  await settle(50);
  t.notOk(shadow.querySelector('.visual-builder__overlay__wrapper.visible'));
  t.notOk(types().includes('update-field'));
  t.notOk(win.document.querySelector('[contenteditable]'));
});

t.test('a number field drops letters and keeps digits', async (t) => {
  const { win, el } = start(t);
  const price = el(PRICE);
  price.click();
  await settle(80);
  t.equal(price.getAttribute('data-cslp-field-type'), 'number');
  const letter = new win.KeyboardEvent('keydown', { key: 'x', bubbles: true, cancelable: true });
  price.dispatchEvent(letter);
  t.ok(letter.defaultPrevented, 'a letter is blocked');
  const digit = new win.KeyboardEvent('keydown', { key: '5', bubbles: true, cancelable: true });
  price.dispatchEvent(digit);
  t.notOk(digit.defaultPrevented, 'a digit passes');
});

t.test('a field missing from the schema shows the invalid-tag badge', async (t) => {
  const { el, shadow } = start(t, { schema: { price: SCHEMA.price } });
  el(TITLE).click();
  await settle(80);
  const badge = shadow.querySelector('[data-testid="visual-builder__focused-toolbar__error"]');
  t.equal(badge?.textContent, 'Error');
  t.match(badge?.getAttribute('data-tooltip'), /Invalid CSLP tag\nThe CSLP is invalid or incorrectly generated\./);
});

t.test('destroy removes the UI and stops listening', async (t) => {
  const framed = framedSite({ url: PAGE });
  t.teardown(() => framed.close());
  const win = framed.site;
  win.document.body.innerHTML = `<h1 data-cslp="${TITLE}">AquaSense</h1>`;
  const channel = createChannel('visual-builder', win, createPeer(win, [EDITOR_ORIGIN]));
  const builder = startBuilder({ win, config: baseConfig(), channel });
  builder.destroy();
  t.notOk(win.document.querySelector('.visual-builder__container'));
  const click = new win.MouseEvent('click', { bubbles: true, cancelable: true });
  win.document.querySelector('h1')?.dispatchEvent(click);
  t.notOk(click.defaultPrevented, 'clicks reach the page again');
  channel.destroy();
});

t.test('an empty multiple field gets a placeholder whose button adds the first instance', async (t) => {
  const framed = framedSite({ url: PAGE });
  const win = framed.site;
  win.document.body.innerHTML =
    '<section class="visual-builder__empty-block-parent" data-cslp="page.p1.en-GB.items"></section>';
  const editor = framed.editor('visual-builder');
  const adds: unknown[] = [];
  editor.on('get-field-schema', () => ({
    fieldSchemaMap: { items: { data_type: 'group', multiple: true, display_name: 'Items' } },
  }));
  editor.on('add-instance', (event) => {
    adds.push(event.data);
    return {};
  });
  const channel = createChannel('visual-builder', win, createPeer(win, [EDITOR_ORIGIN]));
  const builder = startBuilder({ win, config: baseConfig(), channel });
  t.teardown(async () => {
    builder.destroy();
    channel.destroy();
    await framed.close();
  });
  await settle(50);
  const block = win.document.querySelector('.visual-builder__empty-block');
  t.equal(
    block?.querySelector('.visual-builder__empty-block-title')?.textContent,
    'There are no Items on this page yet.',
  );
  (win.document.querySelector('.visual-builder__empty-block button') as HTMLButtonElement).click();
  await settle(50);
  t.match(adds, [{ index: 0, fieldMetadata: { cslpValue: 'page.p1.en-GB.items' } }]);
  win.document.querySelector('section')?.classList.remove('visual-builder__empty-block-parent');
  await settle(150);
  t.notOk(win.document.querySelector('.visual-builder__empty-block'), 'removed once the field is no longer empty');
});

t.test('editor requests: entries on the page, draft and variant marks, hide-focus-overlay', async (t) => {
  const framed = framedSite({ url: PAGE });
  const win = framed.site;
  win.document.body.innerHTML = `<h1 data-cslp="${TITLE}">AquaSense</h1><p data-cslp="page_template.dw.en-GB.body.0">x</p>
    <p data-cslp="v2:page_template.dw_cs1.en-GB.body.1">y</p>`;
  const editor = framed.editor('visual-builder');
  const updates: unknown[] = [];
  editor.on('get-field-schema', () => ({ fieldSchemaMap: SCHEMA }));
  editor.on('update-field', (event) => {
    updates.push(event.data);
  });
  const channel = createChannel('visual-builder', win, createPeer(win, [EDITOR_ORIGIN]));
  const builder = startBuilder({ win, config: baseConfig(), channel });
  t.teardown(async () => {
    builder.destroy();
    channel.destroy();
    await framed.close();
  });
  t.same(await editor.send('get-entries-in-current-page'), {
    entriesInCurrentPage: [
      { entryUid: 'page-4711', contentTypeUid: 'page', locale: 'en-GB' },
      { entryUid: 'dw', contentTypeUid: 'page_template', locale: 'en-GB' },
    ],
  });
  await editor.send('show-draft-fields', { fields: [TITLE] });
  t.ok(win.document.querySelector('h1')?.classList.contains('visual-builder__draft-field'));
  await editor.send('remove-draft-fields');
  t.notOk(win.document.querySelector('.visual-builder__draft-field'));
  await editor.send('show-variant-fields', { variant_data: { variant: 'cs1', highlightVariantFields: true } });
  const [, base, variant] = Array.from(win.document.querySelectorAll('[data-cslp]'));
  t.ok(variant?.classList.contains('visual-builder__variant-field'));
  t.ok(variant?.classList.contains('visual-builder__variant-field--outline'));
  t.ok(base?.classList.contains('visual-builder__base-field'));
  await editor.send('remove-variant-fields', { onlyHighlighted: true });
  t.notOk(variant?.classList.contains('visual-builder__variant-field--outline'));
  t.ok(variant?.classList.contains('visual-builder__variant-field'));

  const title = win.document.querySelector('h1') as HTMLElement;
  title.click();
  await settle(80);
  title.textContent = 'Changed';
  title.dispatchEvent(new win.Event('input', { bubbles: true }));
  await editor.send('hide-focus-overlay', { noTrigger: true });
  t.equal(title.textContent, 'AquaSense', 'noTrigger puts the text back');
  t.same(updates, [], 'and sends no update-field');
});

t.test('toolbar: parent labels focus the parent; the variant revert menu sends the action', async (t) => {
  const framed = framedSite({ url: PAGE });
  const win = framed.site;
  const body = 'v2:page_template.dw_cs1.en-GB.body.0';
  win.document.body.innerHTML = `<section data-cslp="${body}"><h2 data-cslp="${body}.headline">H</h2></section>`;
  const editor = framed.editor('visual-builder');
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
  const channel = createChannel('visual-builder', win, createPeer(win, [EDITOR_ORIGIN]));
  const builder = startBuilder({ win, config: baseConfig(), channel });
  t.teardown(async () => {
    builder.destroy();
    channel.destroy();
    await framed.close();
  });
  const shadow = win.document.querySelector('.visual-builder__container')?.shadowRoot as ShadowRoot;
  (win.document.querySelector('h2') as HTMLElement).click();
  await settle(100);
  t.match(shadow.querySelector('.tb-label')?.textContent, /body › body\.headline/);
  const revert = Array.from(shadow.querySelectorAll('.tb-menu button')).map((b) => b.textContent);
  t.same(revert, ['Revert to base entry value', 'Restore sorted instances']);
  (shadow.querySelector('.tb-menu button') as HTMLButtonElement).click();
  await settle(50);
  t.same(received.find((r) => r.type === 'send-variant-revert-action-trigger')?.data, {
    fieldDataName: 'body.0.headline',
    action: 'revert_to_base_entry_value',
    euid: 'dw',
    ct_uid: 'page_template',
    locale: 'en-GB',
  });
  (shadow.querySelector('.tb-parents button') as HTMLButtonElement).click();
  await settle(100);
  const focuses = received.filter((r) => r.type === 'focus-field');
  t.match(focuses.at(-1)?.data, { DOMEditStack: [{ cslpValue: body }] }, 'the parent is focused');
});

const PRICE_SHOWN = '<data data-cslp="page.page-4711.en-GB.price">£779</data>';
const pressEscape = (win: PageWindow) =>
  win.document.dispatchEvent(new win.KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));

t.test('a formatted value is edited on a pseudo-editable copy that goes on deselect', async (t) => {
  const { win, el, received, shadow } = start(t, { answers: { 'get-field-data': () => ({ fieldData: 779 }) } });
  win.document.querySelector('data')?.remove();
  win.document.querySelector('main')?.insertAdjacentHTML('beforeend', PRICE_SHOWN);
  const price = el(PRICE);
  price.click();
  await settle(80);
  const copy = win.document.querySelector('.visual-builder__pseudo-editable-element') as HTMLElement;
  t.ok(copy, 'a copy is laid over the field');
  t.equal(copy.textContent, '779', 'showing the stored value');
  t.equal(copy.getAttribute('contenteditable'), 'true');
  t.equal(copy.getAttribute('data-cslp-field-type'), 'number');
  t.notOk(price.hasAttribute('contenteditable'), 'the field itself is not edited');
  t.ok(price.classList.contains('visual-builder__pseudo-editable-source'), 'and is hidden');
  const digit = new win.KeyboardEvent('keydown', { key: 'x', bubbles: true, cancelable: true });
  copy.dispatchEvent(digit);
  t.ok(digit.defaultPrevented, 'the number rules apply to the copy');
  copy.textContent = '799';
  copy.dispatchEvent(new win.Event('input', { bubbles: true }));
  await settle(50);
  t.same(
    received.filter((r) => r.type === 'sync-field').map((r) => (r.data as { data: string }).data),
    ['799'],
  );
  t.ok(shadow.querySelector('.visual-builder__overlay__wrapper.visible'));
  pressEscape(win);
  await settle(50);
  t.match(received.find((r) => r.type === 'update-field')?.data, { data: '799' });
  t.notOk(win.document.querySelector('.visual-builder__pseudo-editable-element'), 'the copy is removed');
  t.notOk(price.classList.contains('visual-builder__pseudo-editable-source'), 'the field is shown again');
  t.equal(price.textContent, '£779', 'unchanged');
});

t.test('a field showing its stored value is edited in place, without a copy', async (t) => {
  const { win, el } = start(t, { answers: { 'get-field-data': () => ({ fieldData: 'AquaSense' }) } });
  el(TITLE).click();
  await settle(80);
  t.notOk(win.document.querySelector('.visual-builder__pseudo-editable-element'));
  t.equal(el(TITLE).getAttribute('contenteditable'), 'true');
});

/** Fake `setTimeout` from here on (the builder's timers); happy-dom delivers messages on its own, real timers. */
function fakeTimers(t: Test) {
  mock.timers.enable({ apis: ['setTimeout'] });
  t.teardown(() => mock.timers.reset());
}
const delivered = (win: PageWindow) => new Promise((resolve) => win.setTimeout(resolve, 20));
/** An editor request under fake timers: the library's zero-delay timers run, the clock stays. */
async function pumped<T>(win: PageWindow, request: Promise<T>): Promise<T> {
  let settled = false;
  const result = request.finally(() => {
    settled = true;
  });
  while (!settled) {
    mock.timers.tick(0);
    await delivered(win);
  }
  return result;
}

/** happy-dom has no layout: the field reports the box a browser would; `grow` is what wrapping does. */
function layoutBox(element: HTMLElement): { grow(height: number): void } {
  let height = 40;
  element.getBoundingClientRect = () =>
    ({ top: 100, left: 10, right: 310, bottom: 100 + height, width: 300, height, x: 10, y: 100 }) as DOMRect;
  return {
    grow(next) {
      height = next;
    },
  };
}

t.test('while typing, overlay and outline are placed again 200 ms after the last input', async (t) => {
  const { win, shadow, el } = start(t);
  const title = el(TITLE);
  const box = layoutBox(title);
  title.click();
  await settle(80);
  const outline = shadow.querySelector('.visual-builder__overlay--outline') as HTMLElement;
  const below = shadow.querySelector('.visual-builder__overlay--bottom') as HTMLElement;
  t.equal(outline.style.height, '40px');
  fakeTimers(t);
  box.grow(80);
  title.textContent = 'AquaSense 60 Quiet, now on two lines';
  title.dispatchEvent(new win.Event('input', { bubbles: true }));
  mock.timers.tick(150);
  title.dispatchEvent(new win.Event('input', { bubbles: true }));
  mock.timers.tick(199);
  t.equal(outline.style.height, '40px', 'not while the typing goes on');
  mock.timers.tick(1);
  t.equal(outline.style.height, '80px', 'the outline takes the grown field');
  t.equal(below.style.top, '180px', 'the overlay below it moves down');
});

t.test(
  'a paste into a multiline field is plain text with its lines, synced and placed 100 ms after the last',
  async (t) => {
    const multiline = { ...SCHEMA.title, field_metadata: { multiline: true } };
    const { win, shadow, el, received } = start(t, {
      schema: { ...SCHEMA, title: multiline },
      answers: { 'get-field-data': () => ({ fieldData: 'AquaSense' }) },
    });
    const title = el(TITLE);
    const box = layoutBox(title);
    title.click();
    await settle(80);
    t.equal(title.getAttribute('data-cslp-field-type'), 'multiline');
    // The browser's insertText: puts the text at the caret and fires input.
    const inserted: string[] = [];
    win.document.execCommand = (_command: string, _ui?: boolean, text = '') => {
      inserted.push(text);
      text.split('\n').forEach((line, i) => {
        if (i) title.append(win.document.createElement('br'));
        title.append(line);
      });
      title.dispatchEvent(new win.Event('input', { bubbles: true }));
      return true;
    };
    const paste = (html: string, text: string) => {
      const clipboardData = new win.DataTransfer();
      clipboardData.setData('text/html', html);
      clipboardData.setData('text/plain', text);
      const event = new win.ClipboardEvent('paste', { bubbles: true, cancelable: true, clipboardData });
      title.dispatchEvent(event);
      return event;
    };
    fakeTimers(t);
    box.grow(80);
    const first = paste('<b>Quiet</b>', ' Quiet\r\nwash');
    t.ok(first.defaultPrevented, 'the browser does not paste the rich text');
    mock.timers.tick(60);
    paste('<i>cycle</i>', '\ncycle');
    t.same(inserted, [' Quiet\nwash', '\ncycle'], 'each paste inserts its plain text, lines kept');
    mock.timers.tick(99);
    await delivered(win);
    const syncs = () => received.filter((r) => r.type === 'sync-field').map((r) => (r.data as { data: string }).data);
    t.same(syncs(), [], 'nothing synced during the burst');
    const outline = shadow.querySelector('.visual-builder__overlay--outline') as HTMLElement;
    t.equal(outline.style.height, '40px');
    mock.timers.tick(1);
    await delivered(win);
    // happy-dom's innerText has no line breaks; Chromium's is checked in test/e2e/builder.test.ts.
    t.match(syncs(), [/^AquaSense Quiet\s*wash\s*cycle$/], 'one sync-field with the whole text');
    t.equal(syncs().length, 1);
    t.equal(outline.style.height, '80px', 'the outline takes the grown field');
  },
);

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
  await settle(100);
  t.match(discussionRequests[0], { fieldMetadata: { cslpValue: TITLE }, fieldSchema: SCHEMA.title });
  const button = existing.shadow.querySelector(comment) as HTMLButtonElement;
  t.equal(button.getAttribute('aria-label'), 'View comments');
  button.click();
  await settle(50);
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
  await settle(100);
  const fallback = failing.shadow.querySelector(comment) as HTMLButtonElement;
  t.equal(fallback.getAttribute('aria-label'), 'Add comment');
  fallback.click();
  await settle(50);
  t.match(failing.received.find((r) => r.type === 'open-field-comment-modal')?.data, { discussion: { uid: 'new' } });

  // The editor says there are no comments for this field.
  const none = start(t, { answers: { 'get-discussion-id-for-comment-modal': () => ({ error: true }) } });
  none.el(TITLE).click();
  await settle(100);
  t.notOk(none.shadow.querySelector(comment), 'no button');
  t.ok(none.shadow.querySelector('[data-testid="visual-builder-form"]'), 'the rest of the toolbar is there');
});

t.test('update-discussion-id-for-focus-field changes the focused field only', async (t) => {
  const comment = '[data-testid="visual-builder__focused-toolbar__multiple-field-toolbar__comment-button"]';
  const { el, shadow, editor } = start(t, {
    answers: { 'get-discussion-id-for-comment-modal': () => ({ uid: 'new' }) },
  });
  el(TITLE).click();
  await settle(100);
  t.equal(shadow.querySelector(comment)?.getAttribute('aria-label'), 'Add comment');
  const update = { entryId: 'page-4711', contentTypeId: 'page', discussion: { uid: 'd-9' } };
  await editor.send('update-discussion-id-for-focus-field', { ...update, fieldPath: 'price' });
  t.equal(shadow.querySelector(comment)?.getAttribute('aria-label'), 'Add comment', 'another field: unchanged');
  await editor.send('update-discussion-id-for-focus-field', { ...update, fieldPath: 'title' });
  t.equal(shadow.querySelector(comment)?.getAttribute('aria-label'), 'View comments');
});

t.test('hide-focus-overlay from collaboration hands the page to comments; without it the builder stays', async (t) => {
  const { win, el, editor, config, types, shadow } = start(t);
  el(TITLE).click();
  await settle(80);
  await editor.send('hide-focus-overlay', {});
  t.notOk(shadow.querySelector('.visual-builder__overlay__wrapper.visible'), 'deselected');
  t.notOk(config.collab.enable, 'collaboration untouched');
  el(TITLE).click();
  await settle(80);
  t.ok(shadow.querySelector('.visual-builder__overlay__wrapper.visible'), 'a click focuses again');

  await editor.send('hide-focus-overlay', { fromCollab: true });
  t.notOk(shadow.querySelector('.visual-builder__overlay__wrapper.visible'), 'deselected');
  t.ok(config.collab.enable && config.collab.pauseFeedback, 'collaboration on and paused');
  const clicks = types().filter((type) => type === 'mouse-click').length;
  el(TITLE).click();
  el(TITLE).dispatchEvent(new win.MouseEvent('mousemove', { bubbles: true, clientX: 5, clientY: 5 }));
  await settle(80);
  t.notOk(shadow.querySelector('.visual-builder__overlay__wrapper.visible'), 'clicks no longer focus');
  t.equal(types().filter((type) => type === 'mouse-click').length, clicks, 'nor send mouse-click');
  t.ok((shadow.querySelector('.visual-builder__hover-outline') as HTMLElement).hidden, 'no hover outline');
});

t.test('field-type icons on the cursor and the toolbar label', async (t) => {
  const { win, el, shadow } = start(t);
  el(PRICE).dispatchEvent(new win.MouseEvent('mousemove', { bubbles: true, clientX: 5, clientY: 5 }));
  await settle(80);
  const cursorPath = shadow.querySelector('.visual-builder__cursor-icon svg path')?.getAttribute('d');
  t.equal(cursorPath, 'M6 2 4 14M12 2l-2 12M2 6h12M2 10h12', 'the number icon');
  t.match(shadow.querySelector('.visual-builder__cursor-icon')?.textContent, 'Number');
  el(TITLE).click();
  await settle(80);
  t.equal(
    shadow.querySelector('.tb-label svg path')?.getAttribute('d'),
    'M3 3h10M8 3v10',
    'the single-line icon in the label',
  );
});

t.test('variant-patch-update: in audience mode, re-tagged fields are marked for 8 s', async (t) => {
  const { win, editor, livePreviewEditor } = start(t);
  const main = win.document.querySelector('main') as HTMLElement;
  main.insertAdjacentHTML('beforeend', '<p id="f" data-cslp="page.page-4711.en-GB.summary">s</p>');
  const field = win.document.getElementById('f') as HTMLElement;
  const patch = {
    highlightVariantFields: true,
    expectedCSLPValues: { variant: 'v2:page.page-4711_cs1.en-GB.summary', base: 'page.page-4711.en-GB.summary' },
  };
  await livePreviewEditor.send('variant-patch-update', patch);
  field.setAttribute('data-cslp', patch.expectedCSLPValues.variant);
  await delivered(win);
  t.notOk(field.classList.contains('visual-builder__variant-field'), 'outside audience mode nothing happens');

  await editor.send('set-audience-mode', { audienceMode: true });
  await editor.send('get-variant-id', { variant: 'cs1' });
  field.setAttribute('data-cslp', patch.expectedCSLPValues.base);
  // The watch's 8 s run on the fake clock.
  fakeTimers(t);
  await pumped(win, livePreviewEditor.send('variant-patch-update', patch));
  t.ok(field.classList.contains('visual-builder__base-field'), 'the field as it is now');
  field.setAttribute('data-cslp', patch.expectedCSLPValues.variant);
  await delivered(win);
  t.ok(field.classList.contains('visual-builder__variant-field'), 'a re-tagged field becomes a variant field');
  t.ok(field.classList.contains('visual-builder__variant-field--outline'), 'highlighted');
  t.notOk(field.classList.contains('visual-builder__base-field'));
  main.insertAdjacentHTML('beforeend', '<p id="g" data-cslp="v2:page.page-4711_cs2.en-GB.other">o</p>');
  await delivered(win);
  t.ok(win.document.getElementById('g')?.classList.contains('visual-builder__disabled-variant-field'), 'new elements');

  mock.timers.tick(7999);
  field.setAttribute('data-cslp', patch.expectedCSLPValues.base);
  await delivered(win);
  t.ok(field.classList.contains('visual-builder__base-field'), 'still watched just before 8 s');
  field.setAttribute('data-cslp', patch.expectedCSLPValues.variant);
  await delivered(win);
  mock.timers.tick(1);
  field.setAttribute('data-cslp', patch.expectedCSLPValues.base);
  await delivered(win);
  t.ok(field.classList.contains('visual-builder__variant-field'), 'after 8 s the watch has ended');
});
