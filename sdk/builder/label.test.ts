import t from 'tap';
import { readContentTypeName, readReferenceMap } from './protocol.ts';
import { start, TITLE } from './test-builder.ts';
import { fill, textsOf } from './text.ts';

/**
 * The hover toolbar (4.x) against the real editor library: the field path, the content type's name
 * and the referring field, asked with 4.4.1's payloads, kept while hovering, asked again on focus
 * and after an entry change, and shown without them when the editor does not answer in time.
 */

const REFERENCES = {
  'page-4711': [
    { contentTypeUid: 'landing', contentTypeTitle: 'Landing page', referenceFieldName: 'Featured page' },
    { contentTypeUid: 'menu', contentTypeTitle: 'Menu', referenceFieldName: 'Items' },
  ],
};
const NAMED = {
  'get-content-type-name': () => ({ contentTypeName: 'Page' }),
  'get-reference-map': () => REFERENCES,
};

const hover = (s: ReturnType<typeof start>, tag = TITLE) =>
  s.el(tag).dispatchEvent(new s.win.MouseEvent('mousemove', { bubbles: true, clientX: 5, clientY: 5 }));
const label = (s: ReturnType<typeof start>) =>
  s.shadow.querySelector('.visual-builder__hover-toolbar:not([hidden])')?.textContent ?? null;

t.test('hovering a field shows its path, its content type and where its entry is referenced from', async (t) => {
  const s = start(t, { answers: NAMED });
  hover(s);
  await s.advance(80);
  t.equal(label(s), `Page :TitleReferenced from Featured page in Landing page`);
  t.same(s.received.find((r) => r.type === 'get-content-type-name')?.data, { content_type_uid: 'page' });
  t.same(s.received.find((r) => r.type === 'get-reference-map')?.data, {}, '4.4.1 asks the whole map');
  t.match(
    s.received.find((r) => r.type === 'get-field-display-names')?.data,
    [{ cslpValue: TITLE, fieldPath: 'title' }],
    'the field path’s names, asked with the field’s tag',
  );
  s.win.document.documentElement.dispatchEvent(new s.win.MouseEvent('mouseleave'));
  await s.advance(10);
  t.equal(label(s), null, 'gone when the pointer leaves the page');
});

t.test('the referring field is the one whose content type encloses the field on the page', async (t) => {
  const s = start(t, { answers: NAMED });
  const title = s.el(TITLE);
  const menu = s.win.document.createElement('nav');
  menu.setAttribute('data-cslp', 'menu.main.en-GB.items');
  title.replaceWith(menu);
  menu.append(title);
  hover(s);
  await s.advance(80);
  t.match(label(s), /Referenced from Items in Menu$/);
});

t.test('kept while hovering; asked again on focus and after an entry change', async (t) => {
  const s = start(t, { answers: NAMED });
  const asked = (type: string) => s.received.filter((r) => r.type === type).length;
  const away = async () => {
    s.win.document.documentElement.dispatchEvent(new s.win.MouseEvent('mouseleave'));
    await s.advance(10);
  };
  for (let i = 0; i < 4; i++) {
    hover(s);
    await s.advance(40);
    await away();
  }
  t.equal(asked('get-content-type-name'), 1, 'one name question for four hovers');
  t.equal(asked('get-reference-map'), 1, 'one map question for four hovers');
  t.equal(asked('get-field-display-names'), 1, 'one names question for four hovers');
  s.el(TITLE).click();
  await s.advance(80);
  t.equal(asked('get-content-type-name'), 2, 'focusing asks again');
  t.equal(asked('get-reference-map'), 2);
  t.match(
    s.shadow.querySelector('.visual-builder__focused-toolbar')?.textContent,
    /Page :Title.*Referenced from Featured page in Landing page/,
    'the focused toolbar says the same',
  );
  s.changeEntry();
  t.equal(label(s), null, 'no hover toolbar over the focused field');
  s.win.document.dispatchEvent(new s.win.KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
  hover(s);
  await s.advance(80);
  t.equal(asked('get-content-type-name'), 3, 'an entry change asks again');
});

t.test('without answers in time the label shows the path alone', async (t) => {
  const s = start(t, {
    answers: {
      'get-content-type-name': () => new Promise(() => undefined),
      'get-reference-map': () => new Promise(() => undefined),
    },
  });
  hover(s);
  await s.advance(80);
  t.equal(label(s), 'Title', 'drawn at once from the schema');
  await s.advance(1100);
  t.equal(label(s), 'Title', 'still the path alone after the bound');
  const errors = start(t);
  hover(errors);
  await errors.advance(80);
  t.equal(label(errors), 'Title', 'an editor of 3.2.5 days refuses both: the label is as before');
});

t.test('answers are read defensively and texts come from the page when it brings them', async (t) => {
  t.equal(readContentTypeName({ contentTypeName: 'Page' }), 'Page');
  t.equal(readContentTypeName({ contentTypeName: 3 }), '');
  t.equal(readContentTypeName(null), '');
  t.same(
    readReferenceMap({
      a: [{ contentTypeUid: 'x', referenceFieldName: 'F' }, { contentTypeUid: 'y' }, 'no'],
      b: 'no',
      c: [],
    }),
    { a: [{ contentTypeUid: 'x', contentTypeTitle: 'x', referenceFieldName: 'F' }] },
  );
  const texts = textsOf({ referencedFrom: 'Verwiesen von {field} in {contentType}', moreApps: 3 });
  t.equal(fill(texts.referencedFrom, { field: 'F', contentType: 'C' }), 'Verwiesen von F in C');
  t.equal(texts.moreApps, 'More apps', 'a value that is no string is not taken');
});

t.test('the page’s texts are used where it brings them (its language)', async (t) => {
  const s = start(t, { answers: NAMED });
  s.config.messages = { referencedFrom: 'Verwiesen von {field} in {contentType}' };
  hover(s);
  await s.advance(80);
  t.match(label(s), /Verwiesen von Featured page in Landing page$/);
});
