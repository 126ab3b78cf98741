import { Window } from 'happy-dom';
import t, { type Test } from 'tap';
import type { PageWindow } from '../dom.ts';
import '../test-globals.ts';
import { ICONS } from './icons.ts';
import { TEXTS, textsOf } from './text.ts';
import { createUi } from './ui.ts';

/** The drawing layer alone; placement that needs layout is checked in test/e2e/builder-toolbar.test.ts. */

function setup(t: Test, texts = TEXTS) {
  const happy = new Window({ url: 'https://www.halden.co.uk/' });
  const win = happy as unknown as PageWindow;
  t.teardown(() => happy.happyDOM.close());
  const ui = createUi(win, texts);
  return { win, ui, root: ui.root };
}

t.test('one tooltip shows the hovered button’s text and goes when the pointer leaves', async (t) => {
  const { win, ui, root } = setup(t);
  const field = win.document.createElement('p');
  win.document.body.append(field);
  ui.showFocus(field, false);
  ui.renderToolbar({
    label: 'Title',
    icon: 'singleline',
    parents: [],
    reason: '',
    invalid: true,
    buttons: [{ id: 'visual-builder-form', label: 'Form', glyph: '☰', run: () => undefined }],
    revert: [],
    contentType: '',
    referenced: '',
    apps: [],
    texts: TEXTS,
  });
  const tooltip = root.querySelector('.visual-builder__tooltip') as HTMLElement;
  t.ok(tooltip.hidden, 'hidden at first');
  const form = root.querySelector('[data-testid="visual-builder-form"]') as HTMLElement;
  form.dispatchEvent(new win.PointerEvent('pointerover', { bubbles: true, composed: true }));
  t.notOk(tooltip.hidden);
  t.equal(tooltip.textContent, 'Form');
  form.dispatchEvent(new win.PointerEvent('pointerout', { bubbles: true, composed: true, relatedTarget: null }));
  t.ok(tooltip.hidden, 'gone on leaving');
  const badge = root.querySelector('[data-testid="visual-builder__focused-toolbar__error"]') as HTMLElement;
  badge.dispatchEvent(new win.FocusEvent('focusin', { bubbles: true, composed: true }));
  t.equal(tooltip.textContent, 'Invalid CSLP tag\nThe CSLP is invalid or incorrectly generated.', 'on focus too');
  ui.renderToolbar(null);
  t.ok(tooltip.hidden, 'and with its button');
  // The placements started above finish in promise jobs: before the window closes.
  await new Promise((resolve) => setImmediate(resolve));
});

t.test('the cursor icon is drawn again only when the field type changes', async (t) => {
  const { ui, root } = setup(t);
  ui.showCursor(1, 1, 'number', false);
  const svg = root.querySelector('.visual-builder__cursor-icon svg');
  ui.showCursor(5, 5, 'number', true);
  t.equal(root.querySelector('.visual-builder__cursor-icon svg'), svg, 'same node');
  t.ok(root.querySelector('.visual-builder__cursor-disabled'), 'greyed');
  ui.showCursor(5, 5, 'file', false);
  t.equal(root.querySelector('.visual-builder__cursor-icon svg path')?.getAttribute('d'), ICONS.file[0], 'new icon');
  t.match(root.querySelector('.visual-builder__cursor-icon')?.textContent, 'File');
  t.notOk(root.querySelector('.visual-builder__cursor-disabled'));
});

t.test('an open app list stays open and filtered when an answer redraws the toolbar', async (t) => {
  const { win, ui, root } = setup(t);
  const field = win.document.createElement('p');
  win.document.body.append(field);
  ui.showFocus(field, false);
  const app = (title: string) => ({ title, icon: undefined, run: () => undefined });
  const model = {
    label: 'Title',
    icon: 'singleline',
    parents: [],
    reason: '',
    invalid: false,
    buttons: [],
    revert: [],
    contentType: '',
    referenced: '',
    apps: [app('Translator'), app('Spell check'), app('SEO helper')],
    texts: TEXTS,
  };
  ui.renderToolbar(model);
  (root.querySelector('[data-testid="field-location-more-button"]') as HTMLButtonElement).click();
  const search = root.querySelector('.tb-app-search') as HTMLInputElement;
  search.value = 'seo';
  search.dispatchEvent(new win.Event('input', { bubbles: true }));
  ui.renderToolbar({ ...model, contentType: 'Page' });
  const list = root.querySelector('.tb-app-list') as HTMLElement;
  t.notOk(list.hidden, 'still open');
  t.equal(root.querySelector('[data-testid="field-location-more-button"]')?.getAttribute('aria-expanded'), 'true');
  t.equal((root.querySelector('.tb-app-search') as HTMLInputElement).value, 'seo', 'what was typed stays');
  t.same(
    [...list.querySelectorAll<HTMLElement>('.tb-app-item')].map((item) => item.hidden),
    [true, false],
    'still filtered',
  );
  ui.renderToolbar(null);
  ui.renderToolbar(model);
  t.ok((root.querySelector('.tb-app-list') as HTMLElement).hidden, 'a new toolbar starts closed');
});

t.test('the field type beside the cursor is named in the page’s language', async (t) => {
  const { ui, root } = setup(t, textsOf({ typeFile: 'Datei' }));
  ui.showCursor(1, 1, 'file', false);
  t.equal(root.querySelector('.visual-builder__cursor-icon')?.textContent, 'Datei');
  ui.showCursor(1, 1, 'empty', false);
  t.equal(root.querySelector('.visual-builder__cursor-icon')?.textContent, '', 'no name for an untyped field');
});
