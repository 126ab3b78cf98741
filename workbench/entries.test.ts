import t from 'tap';
import {
  addInstance,
  deleteInstance,
  diffHtml,
  displayName,
  editableFields,
  getAt,
  type JsonObject,
  moveInstance,
  setAt,
} from './entries.ts';

/** The workbench's content model: paths, form fields, builder instance operations, the word diff. */

const entry = (): JsonObject => ({
  uid: 'dishwasher',
  body_components: [
    { _content_type_uid: 'hero', uid: 'h1', headline: 'AquaSense 60', image: { url: '/a.svg', alt: 'A', width: 1 } },
    { _content_type_uid: 'faq', uid: 'f1', title: 'FAQ', items: [{ question: 'Q?', answer: 'A.' }] },
  ],
});

t.test('paths read and write own properties only', async (t) => {
  const value = entry();
  t.equal(getAt(value, 'body_components.0.headline'), 'AquaSense 60');
  t.equal(getAt(value, 'body_components.1.items.0.answer'), 'A.');
  t.equal(getAt(value, 'body_components.0.constructor'), undefined);
  t.ok(setAt(value, 'body_components.0.headline', 'New'));
  t.equal(getAt(value, 'body_components.0.headline'), 'New');
  t.notOk(setAt(value, 'body_components.0.__proto__.x', 1));
  t.notOk(setAt(value, 'missing.x', 1));
  t.notOk(setAt(value, 'body_components.9', {}), 'no holes in lists');
});

t.test('the form offers text and numbers, not ids, codes or urls', async (t) => {
  const fields = editableFields(entry());
  t.same(
    fields.map((f) => [f.path, f.kind]),
    [
      ['body_components.0.headline', 'text'],
      ['body_components.0.image.alt', 'text'],
      ['body_components.1.title', 'text'],
      ['body_components.1.items.0.question', 'text'],
      ['body_components.1.items.0.answer', 'text'],
    ],
  );
  t.equal(editableFields({ text: 'x'.repeat(81) })[0]?.kind, 'multiline');
  t.equal(editableFields({ amount: 3 })[0]?.kind, 'number');
});

t.test('instances are added (a copy with a new uid), moved and deleted', async (t) => {
  const value = entry();
  t.ok(moveInstance(value, 'body_components.0', 'next'));
  t.equal(getAt(value, 'body_components.0.uid'), 'f1');
  t.notOk(moveInstance(value, 'body_components.1', 'next'), 'nothing after the last');
  t.ok(addInstance(value, 'body_components', 2));
  t.match(getAt(value, 'body_components.2.uid'), /^h1-[a-z0-9]+$/);
  t.ok(deleteInstance(value, 'body_components.0'));
  t.equal((getAt(value, 'body_components') as unknown[]).length, 2);
  t.notOk(deleteInstance(value, 'body_components.7'));
  t.notOk(addInstance(value, 'uid', 0), 'only lists');
});

t.test('display names and the word diff', async (t) => {
  t.equal(displayName('page.page-4711.en-GB.seo.meta_description'), 'Meta description');
  t.equal(displayName('page_template.x.en-GB.body_components.0.titleText'), 'Title Text');
  t.equal(
    diffHtml('AquaSense 60', 'AquaSense 60 Pro'),
    'AquaSense 60<cs-compare class="cs-compare--added"> </cs-compare><cs-compare class="cs-compare--added">Pro</cs-compare>',
  );
  t.equal(
    diffHtml('old <b>', 'new <b>'),
    '<cs-compare class="cs-compare--added">new</cs-compare><cs-compare class="cs-compare--removed">old</cs-compare> &#60;b&#62;',
  );
});
