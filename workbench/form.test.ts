import t, { type Test } from 'tap';
import type { CslpData } from '../sdk/cslp/parse.ts';
import type { Drafts } from './drafts.ts';
import type { EditedEntry } from './entries.ts';
import { createForm } from './form.ts';
import { installDom } from './test-dom.ts';
import { dishwasherEntry } from './test-entry.ts';

/** The entries form: inputs per field, read-only switches, and the page's edits landing in it. */

const entry = () => dishwasherEntry({ title: 'AquaSense', body_components: [{ headline: 'Quiet', rating: 4 }] });

function setup(t: Test) {
  const win = installDom(t);
  const saved: [EditedEntry, boolean | undefined][] = [];
  const soon: EditedEntry[] = [];
  const changed = { permissions: 0, schemas: 0 };
  const drafts = {
    save: async (e: EditedEntry, announce?: boolean) => void saved.push([e, announce]),
    saveSoon: (e: EditedEntry) => void soon.push(e),
  } as unknown as Drafts;
  const edited = entry();
  const form = createForm({
    entries: [edited],
    drafts,
    permissionsChanged: () => changed.permissions++,
    schemasChanged: () => changed.schemas++,
  });
  document.body.append(form.element);
  form.render();
  const input = (cslp: string) => form.element.querySelector(`[data-cslp="${cslp}"]`) as HTMLInputElement;
  return { win, form, edited, saved, soon, changed, input };
}

const meta = (path: string): CslpData =>
  ({
    content_type_uid: 'page_template',
    entry_uid: 'dishwasher',
    locale: 'en-GB',
    fieldPathWithIndex: path,
    instance: { fieldPathWithIndex: path },
  }) as CslpData;

t.test('each text and number field gets an input named by its tag; typing saves soon', async (t) => {
  const { win, input, edited, soon } = setup(t);
  const headline = input('page_template.dishwasher.en-GB.body_components.0.headline');
  t.equal(headline.value, 'Quiet');
  t.equal(input('page_template.dishwasher.en-GB.body_components.0.rating').type, 'number');
  headline.value = 'Silent';
  headline.dispatchEvent(new win.Event('input') as unknown as Event);
  t.same(soon, [edited]);
  t.same(edited.value.body_components, [{ headline: 'Silent', rating: 4 }]);
});

t.test('the read-only switches disable inputs and tell the workbench what to re-ask', async (t) => {
  const { win, form, input, edited, changed } = setup(t);
  const entryLock = form.element.querySelector('legend input') as HTMLInputElement;
  entryLock.checked = true;
  entryLock.dispatchEvent(new win.Event('change') as unknown as Event);
  t.ok(form.readOnly.has(edited));
  t.equal(input('page_template.dishwasher.en-GB.title').disabled, true);
  t.equal(changed.permissions, 1);
  const fieldLock = form.element.querySelector(
    'input[name="lock:page_template.dishwasher.body_components.0.headline"]',
  ) as HTMLInputElement;
  fieldLock.checked = true;
  fieldLock.dispatchEvent(new win.Event('change') as unknown as Event);
  t.ok(form.lockedFields.has('page_template:body_components.headline'));
  t.equal(changed.schemas, 1);
});

t.test('a value from the page lands in the entry, the input and a draft; numbers stay numbers', async (t) => {
  const { form, input, edited, saved } = setup(t);
  form.applyFromPage(meta('body_components.0.headline'), 'Whisper', false);
  form.applyFromPage(meta('body_components.0.rating'), '5', true);
  t.equal(input('page_template.dishwasher.en-GB.body_components.0.headline').value, 'Whisper');
  t.same(edited.value.body_components, [{ headline: 'Whisper', rating: 5 }]);
  t.same(
    saved.map(([, announce]) => announce),
    [false, true],
  );
});

t.test('nothing from the page reaches a read-only or unknown entry', async (t) => {
  const { form, edited, saved } = setup(t);
  form.applyFromPage({ ...meta('title'), entry_uid: 'other' }, 'X', true);
  form.readOnly.add(edited);
  form.applyFromPage(meta('title'), 'X', true);
  await form.structural(meta('body_components'), () => true);
  t.same(saved, []);
  t.equal(edited.value.title, 'AquaSense');
});

t.test('a structural change draws the form again and saves; a refused change does nothing', async (t) => {
  const { form, saved } = setup(t);
  await form.structural(meta('body_components'), () => false);
  t.same(saved, []);
  await form.structural(meta('body_components'), (value) => {
    (value as { body_components: unknown[] }).body_components.push({ headline: 'New', rating: 1 });
    return true;
  });
  t.equal(saved.length, 1);
  t.ok(form.element.querySelector('[data-cslp="page_template.dishwasher.en-GB.body_components.1.headline"]'));
});

t.test('focusing a field marks it; focusing another moves the mark', async (t) => {
  const { form } = setup(t);
  form.focusField('page_template.dishwasher.en-GB.title');
  form.focusField('page_template.dishwasher.en-GB.body_components.0.headline');
  const marked = form.element.querySelectorAll('[data-focused]');
  t.equal(marked.length, 1);
  t.ok(marked[0]?.querySelector('[data-cslp="page_template.dishwasher.en-GB.body_components.0.headline"]'));
});
