import t from 'tap';
import { baseConfig } from '../config/defaults.ts';
import { EDITOR_ORIGIN, framedSite } from '../test-editor.ts';
import { createChannel } from '../transport/channel.ts';
import { createPeer } from '../transport/peer.ts';
import { startBuilder } from './builder.ts';
import { PAGE, start, TITLE } from './test-builder.ts';

/**
 * The select loop in happy-dom against the real editor library: hover, the permission outline,
 * deselecting, teardown. Browser behaviour (layout, the cursor, real typing) is covered in
 * test/e2e/builder.test.ts.
 */

t.test('hovering a field outlines it and shows its field type on the cursor', async (t) => {
  const { win, shadow, el, types, advance } = start(t);
  el(TITLE).dispatchEvent(new win.MouseEvent('mousemove', { bubbles: true, clientX: 5, clientY: 5 }));
  await advance(80);
  t.notOk((shadow.querySelector('.visual-builder__hover-outline') as HTMLElement).hidden, 'outline shown');
  t.equal(shadow.querySelector('.visual-builder__cursor')?.getAttribute('data-icon'), 'singleline');
  t.ok(shadow.querySelector('.visual-builder__cursor')?.classList.contains('visible'));
  // The hover toolbar (4.x) names the field path as 4.4.1 does; the editor refuses what it does not know.
  t.same(
    types().sort(),
    ['get-field-display-names', 'get-field-schema', 'get-permissions'],
    'hover asks for the schema, permissions and the field path’s names only',
  );
});

t.test('a field without update permission gets the grey outline and the reason in the toolbar', async (t) => {
  const { win, shadow, el, advance } = start(t, { update: false });
  el(TITLE).dispatchEvent(new win.MouseEvent('mousemove', { bubbles: true }));
  await advance(80);
  t.ok(shadow.querySelector('.visual-builder__hover-outline--disabled'), 'grey outline');
  el(TITLE).click();
  await advance(80);
  t.match(shadow.querySelector('.tb-reason')?.textContent, 'You do not have permission to edit this entry');
  t.notOk(el(TITLE).hasAttribute('contenteditable'), 'not editable');
});

t.test('deselecting without input sends no update-field; an overlay click deselects', async (t) => {
  const { win, types, shadow, el, advance } = start(t);
  el(TITLE).click();
  await advance(80);
  (shadow.querySelector('.visual-builder__overlay--top') as HTMLElement).click();
  await advance(50);
  t.notOk(shadow.querySelector('.visual-builder__overlay__wrapper.visible'));
  t.notOk(types().includes('update-field'));
  t.notOk(win.document.querySelector('[contenteditable]'));
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
