import t from 'tap';
import { layoutBox, PRICE, PRICE_SHOWN, pressEscape, start, TITLE } from './test-builder.ts';

/** In-place editing: throttled sync-field, update-field on Escape, numbers, pseudo-editable copies, re-placement while typing. */

t.test('click focuses, typing syncs at most every 300 ms, Escape sends update-field', async (t) => {
  const { win, received, types, shadow, el, advance } = start(t);
  const title = el(TITLE);
  title.click();
  await advance(80);
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
  await advance(50);
  t.same(
    received.filter((r) => r.type === 'sync-field').map((r) => (r.data as { data: string }).data),
    ['AquaSense 6'],
    'only the leading sync within 300 ms',
  );
  await advance(350);
  t.same(
    received.filter((r) => r.type === 'sync-field').map((r) => (r.data as { data: string }).data),
    ['AquaSense 6', 'AquaSense 60!'],
    'the trailing sync carries the latest text',
  );
  win.document.dispatchEvent(new win.KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
  await advance(50);
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

t.test('a number field drops letters and keeps digits', async (t) => {
  const { win, el, advance } = start(t);
  const price = el(PRICE);
  price.click();
  await advance(80);
  t.equal(price.getAttribute('data-cslp-field-type'), 'number');
  const letter = new win.KeyboardEvent('keydown', { key: 'x', bubbles: true, cancelable: true });
  price.dispatchEvent(letter);
  t.ok(letter.defaultPrevented, 'a letter is blocked');
  const digit = new win.KeyboardEvent('keydown', { key: '5', bubbles: true, cancelable: true });
  price.dispatchEvent(digit);
  t.notOk(digit.defaultPrevented, 'a digit passes');
});

t.test('a formatted value is edited on a pseudo-editable copy that goes on deselect', async (t) => {
  const { win, el, received, shadow, advance } = start(t, {
    answers: { 'get-field-data': () => ({ fieldData: 779 }) },
  });
  win.document.querySelector('data')?.remove();
  win.document.querySelector('main')?.insertAdjacentHTML('beforeend', PRICE_SHOWN);
  const price = el(PRICE);
  price.click();
  await advance(80);
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
  await advance(50);
  t.same(
    received.filter((r) => r.type === 'sync-field').map((r) => (r.data as { data: string }).data),
    ['799'],
  );
  t.ok(shadow.querySelector('.visual-builder__overlay__wrapper.visible'));
  pressEscape(win);
  await advance(50);
  t.match(received.find((r) => r.type === 'update-field')?.data, { data: '799' });
  t.notOk(win.document.querySelector('.visual-builder__pseudo-editable-element'), 'the copy is removed');
  t.notOk(price.classList.contains('visual-builder__pseudo-editable-source'), 'the field is shown again');
  t.equal(price.textContent, '£779', 'unchanged');
});

t.test('a field showing its stored value is edited in place, without a copy', async (t) => {
  const { win, el, advance } = start(t, { answers: { 'get-field-data': () => ({ fieldData: 'AquaSense' }) } });
  el(TITLE).click();
  await advance(80);
  t.notOk(win.document.querySelector('.visual-builder__pseudo-editable-element'));
  t.equal(el(TITLE).getAttribute('contenteditable'), 'true');
});

t.test('the field last edited carries data-cs-last-edited, and editing it again uses a copy', async (t) => {
  const { win, el, advance } = start(t, { answers: { 'get-field-data': () => ({ fieldData: 'AquaSense' }) } });
  const title = el(TITLE);
  title.click();
  await advance(80);
  t.equal(title.getAttribute('data-cs-last-edited'), 'true', 'set when editing starts');
  t.notOk(win.document.querySelector('.visual-builder__pseudo-editable-element'), 'the first visit edits in place');
  pressEscape(win);
  await advance(50);
  t.equal(title.getAttribute('data-cs-last-edited'), 'true', 'kept after the focus ends');
  title.click();
  await advance(80);
  const copy = win.document.querySelector('.visual-builder__pseudo-editable-element') as HTMLElement;
  t.ok(copy, 'the next visit edits a copy, though the page shows the stored value');
  copy.dispatchEvent(new win.Event('input', { bubbles: true }));
  t.equal(copy.getAttribute('data-cs-last-edited'), 'true', 'typing moves the mark to what is typed into');
  t.equal(win.document.querySelectorAll('[data-cs-last-edited]').length, 1, 'one field carries it');
});

t.test('while typing, overlay and outline are placed again 200 ms after the last input', async (t) => {
  const { win, shadow, el, advance } = start(t);
  const title = el(TITLE);
  const box = layoutBox(title);
  title.click();
  await advance(80);
  const outline = shadow.querySelector('.visual-builder__overlay--outline') as HTMLElement;
  const below = shadow.querySelector('.visual-builder__overlay--bottom') as HTMLElement;
  t.equal(outline.style.height, '40px');
  box.grow(80);
  // Typing changes the text node's data, which page-change watching leaves to the input's own timer.
  (title.firstChild as Text).data = 'AquaSense 60 Quiet, now on two lines';
  title.dispatchEvent(new win.Event('input', { bubbles: true }));
  await advance(150);
  title.dispatchEvent(new win.Event('input', { bubbles: true }));
  await advance(199);
  t.equal(outline.style.height, '40px', 'not while the typing goes on');
  await advance(1);
  t.equal(outline.style.height, '80px', 'the outline takes the grown field');
  t.equal(below.style.top, '180px', 'the overlay below it moves down');
});
