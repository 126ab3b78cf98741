import t from 'tap';
import { baseConfig } from '../config/defaults.ts';
import { EDITOR_ORIGIN, fakeTime, framedSite } from '../test-editor.ts';
import { createChannel } from '../transport/channel.ts';
import { createPeer } from '../transport/peer.ts';
import { startBuilder } from './builder.ts';
import { PAGE } from './test-builder.ts';

/** Multiple fields: the placeholder of an empty one adds the first instance. */

t.test('an empty multiple field gets a placeholder whose button adds the first instance', async (t) => {
  const framed = framedSite({ url: PAGE });
  const { advance } = fakeTime(t, framed);
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
