import t from 'tap';
import { h } from './h.ts';
import { installDom } from './test-dom.ts';

t.test('properties are set as properties, data- and aria- as attributes; children in order', async (t) => {
  installDom(t);
  const button = h(
    'button',
    { type: 'button', disabled: true, 'data-testid': 'save', 'aria-label': 'Save draft' },
    'Save',
    h('span', {}, '!'),
  );
  t.equal(button.type, 'button');
  t.equal(button.disabled, true);
  t.equal(button.getAttribute('data-testid'), 'save');
  t.equal(button.getAttribute('aria-label'), 'Save draft');
  t.equal(button.innerHTML, 'Save<span>!</span>');
});

t.test('text children are text, never markup', async (t) => {
  installDom(t);
  t.equal(h('p', {}, '<b>x</b>').innerHTML, '&lt;b&gt;x&lt;/b&gt;');
});
