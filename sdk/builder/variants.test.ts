import { Window } from 'happy-dom';
import t from 'tap';
import { markVariant, variantMark } from './variants.ts';

t.test(
  'a tag with the variant uid is the variant’s; other v1 tags base; other v2 tags another variant’s',
  async (t) => {
    t.equal(variantMark('v2:page.e1_cs1.en-us.title', 'cs1'), 'variant');
    t.equal(variantMark('page.e1.en-us.title', 'cs1'), 'base');
    t.equal(variantMark('v2:page.e1_cs2.en-us.title', 'cs1'), 'disabled');
    t.equal(variantMark('page.e1.en-us.title', ''), 'base', 'no variant: nothing is a variant field');
  },
);

t.test('marking leaves exactly one class, and the outline only on highlighted variant fields', async (t) => {
  const win = new Window();
  t.teardown(() => win.happyDOM.close());
  const element = win.document.createElement('p');
  element.setAttribute('data-cslp', 'page.e1.en-us.title');
  markVariant(element as unknown as Element, 'cs1', true);
  t.same([...element.classList], ['visual-builder__base-field']);
  element.setAttribute('data-cslp', 'v2:page.e1_cs1.en-us.title');
  markVariant(element as unknown as Element, 'cs1', true);
  t.same([...element.classList].sort(), ['visual-builder__variant-field', 'visual-builder__variant-field--outline']);
  markVariant(element as unknown as Element, 'cs1', false);
  t.same([...element.classList], ['visual-builder__variant-field']);
});

t.test(
  '4.x variantOrder: a v2 tag of a variant ordered before the selected one is a lower-order variant field',
  async (t) => {
    const order = ['cs0', 'cs1', 'cs2'];
    t.equal(variantMark('v2:page.e1_cs0.en-us.title', 'cs1', order), 'lower');
    t.equal(variantMark('v2:page.e1_cs2.en-us.title', 'cs1', order), 'disabled', 'a higher-order variant’s field');
    t.equal(variantMark('v2:page.e1_cs9.en-us.title', 'cs1', order), 'disabled', 'a variant not in the order');
    t.equal(variantMark('v2:page.e1_cs0.en-us.title', 'cs1', []), 'disabled', 'no order: as 3.2.5');
    t.equal(variantMark('v2:page.e1_cs0.en-us.title', 'cs1', ['cs1', 'cs0', 'cs1']), 'lower', 'last occurrences count');
    const win = new Window();
    t.teardown(() => win.happyDOM.close());
    const element = win.document.createElement('p');
    element.setAttribute('data-cslp', 'v2:page.e1_cs0.en-us.title');
    markVariant(element as unknown as Element, 'cs1', true, order);
    t.same(
      [...element.classList].sort(),
      ['visual-builder__lower-order-variant-field', 'visual-builder__variant-field'],
      'a variant field too, never outlined',
    );
    markVariant(element as unknown as Element, 'cs1', true);
    t.same([...element.classList], ['visual-builder__disabled-variant-field']);
  },
);
