import { Window } from 'happy-dom';
import t from 'tap';
import { parseCslp } from '../cslp/parse.ts';
import { addDirection, instancesOf, isInstance, parentTag } from './instances.ts';

const page = (html: string) => {
  const win = new Window();
  win.document.body.innerHTML = html;
  return win.document as unknown as Document;
};

t.test('a tag ending in an index is an instance; its parent is the tag without the index', async (t) => {
  const instance = parseCslp('page_template.dw.en-GB.body_components.1')!;
  t.ok(isInstance(instance));
  t.equal(parentTag(instance), 'page_template.dw.en-GB.body_components');
  t.notOk(isInstance(parseCslp('page_template.dw.en-GB.body_components.1.headline')!), 'a field inside an instance');
  t.notOk(isInstance(parseCslp('page.p.en-GB.title')!));
});

t.test('instances are found in index order, not nested fields', async (t) => {
  const doc = page(`<div>
    <p data-cslp="ct.e.en.items.1">b</p><p data-cslp="ct.e.en.items.0">a</p>
    <p data-cslp="ct.e.en.items.0.title">nested</p><p data-cslp="ct.e.en.items_other.0">other</p></div>`);
  t.same(
    instancesOf(doc, 'ct.e.en.items').map((el) => el.textContent),
    ['a', 'b'],
  );
});

t.test('the container attribute decides the direction; otherwise the layout of the first two items', async (t) => {
  const doc = page(`<ul data-add-direction="horizontal"><li data-cslp="c.e.l.f.0"></li></ul>`);
  t.equal(addDirection(doc.querySelector('li'), instancesOf(doc, 'c.e.l.f')), 'horizontal');
  const rect = (left: number, top: number) => ({
    left,
    top,
    width: 10,
    height: 10,
    right: left + 10,
    bottom: top + 10,
  });
  const items = [{ getBoundingClientRect: () => rect(0, 0) }, { getBoundingClientRect: () => rect(200, 0) }];
  t.equal(addDirection(null, items as unknown as Element[]), 'horizontal');
  const stacked = [{ getBoundingClientRect: () => rect(0, 0) }, { getBoundingClientRect: () => rect(0, 80) }];
  t.equal(addDirection(null, stacked as unknown as Element[]), 'vertical');
});
