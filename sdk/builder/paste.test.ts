import t from 'tap';
import { layoutBox, SCHEMA, start, TITLE } from './test-builder.ts';

/** Pasting into a field: plain text with its lines, synced and placed once the pastes pause. */

t.test(
  'a paste into a multiline field is plain text with its lines, synced and placed 100 ms after the last',
  async (t) => {
    const multiline = { ...SCHEMA.title, field_metadata: { multiline: true } };
    const { win, shadow, el, received, advance } = start(t, {
      schema: { ...SCHEMA, title: multiline },
      answers: { 'get-field-data': () => ({ fieldData: 'AquaSense' }) },
    });
    const title = el(TITLE);
    const box = layoutBox(title);
    title.click();
    await advance(80);
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
    box.grow(80);
    const first = paste('<b>Quiet</b>', ' Quiet\r\nwash');
    t.ok(first.defaultPrevented, 'the browser does not paste the rich text');
    await advance(60);
    paste('<i>cycle</i>', '\ncycle');
    t.same(inserted, [' Quiet\nwash', '\ncycle'], 'each paste inserts its plain text, lines kept');
    await advance(99);
    await advance(0);
    const syncs = () => received.filter((r) => r.type === 'sync-field').map((r) => (r.data as { data: string }).data);
    t.same(syncs(), [], 'nothing synced during the burst');
    const outline = shadow.querySelector('.visual-builder__overlay--outline') as HTMLElement;
    t.equal(outline.style.height, '40px');
    await advance(1);
    await advance(0);
    // happy-dom's innerText has no line breaks; Chromium's is checked in test/e2e/builder.test.ts.
    t.match(syncs(), [/^AquaSense Quiet\s*wash\s*cycle$/], 'one sync-field with the whole text');
    t.equal(syncs().length, 1);
    t.equal(outline.style.height, '80px', 'the outline takes the grown field');
  },
);
