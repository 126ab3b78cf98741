import { Window } from 'happy-dom';
import t from 'tap';
import type { PageWindow } from '../dom.ts';
import { createPseudo, needsPseudo, PSEUDO_CLASS, PSEUDO_SOURCE_CLASS } from './pseudo.ts';

t.test('a copy is needed when the page shows other text than the stored value, or cuts it short', async (t) => {
  t.ok(needsPseudo('£779', '779', false), 'formatted');
  t.notOk(needsPseudo('779', '779', false), 'same value');
  t.notOk(needsPseudo(' AquaSense \n', 'AquaSense', false), 'surrounding white space does not count');
  t.ok(needsPseudo('AquaSense 60 dish…', 'AquaSense 60 dishwasher', false), 'different text');
  t.ok(needsPseudo('AquaSense', 'AquaSense', true), 'truncated behind an ellipsis');
  t.notOk(needsPseudo('£0', '', false), 'nothing stored: the field is edited as shown');
});

t.test('the copy shows the stored value over the hidden field; removing it shows the field again', async (t) => {
  const win = new Window({ url: 'https://www.halden.co.uk/' }) as unknown as PageWindow;
  t.teardown(() => (win as unknown as Window).happyDOM.close());
  win.document.body.innerHTML = '<data style="font-size: 20px; color: rgb(1, 2, 3)">£779</data>';
  const field = win.document.querySelector('data') as HTMLElement;
  const pseudo = createPseudo(win, field, '779', 'number');
  t.equal(pseudo.element.parentElement, win.document.body);
  t.ok(pseudo.element.classList.contains(PSEUDO_CLASS));
  t.equal(pseudo.element.textContent, '779');
  t.equal(pseudo.element.getAttribute('data-cslp-field-type'), 'number');
  t.equal(pseudo.element.style.fontSize, '20px', 'reads like the field');
  t.equal(pseudo.element.style.color, 'rgb(1, 2, 3)');
  t.ok(field.classList.contains(PSEUDO_SOURCE_CLASS), 'the field is hidden');
  t.equal(field.textContent, '£779', 'and unchanged');
  pseudo.remove();
  t.notOk(win.document.querySelector(`.${PSEUDO_CLASS}`));
  t.notOk(field.classList.contains(PSEUDO_SOURCE_CLASS));
});
