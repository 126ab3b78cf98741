import t from 'tap';
import { bare } from './test-builder.ts';

/** Multiple fields: the placeholder of an empty one adds the first instance. */

t.test('an empty multiple field gets a placeholder whose button adds the first instance', async (t) => {
  const { win, editor, advance } = bare(
    t,
    '<section class="visual-builder__empty-block-parent" data-cslp="page.p1.en-GB.items"></section>',
  );
  const adds: unknown[] = [];
  editor.on('get-field-schema', () => ({
    fieldSchemaMap: { items: { data_type: 'group', multiple: true, display_name: 'Items' } },
  }));
  editor.on('add-instance', (event) => {
    adds.push(event.data);
    return {};
  });
  await advance(50);
  const block = win.document.querySelector('.visual-builder__empty-block');
  t.equal(
    block?.querySelector('.visual-builder__empty-block-title')?.textContent,
    'There are no Items on this page yet.',
  );
  (win.document.querySelector('.visual-builder__empty-block button') as HTMLButtonElement).click();
  await advance(50);
  t.match(adds, [{ index: 0, fieldMetadata: { cslpValue: 'page.p1.en-GB.items' } }]);
  win.document.querySelector('section')?.classList.remove('visual-builder__empty-block-parent');
  await advance(150);
  t.notOk(win.document.querySelector('.visual-builder__empty-block'), 'removed once the field is no longer empty');
});
