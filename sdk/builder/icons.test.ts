import { Window } from 'happy-dom';
import t from 'tap';
import { FIELD_TYPES } from './field-type.ts';
import { ICONS, icon, iconFor } from './icons.ts';

t.test('every field type has its own icon and name; unknown types get the empty icon', async (t) => {
  for (const type of FIELD_TYPES) {
    const [path, name] = iconFor(type);
    t.not(path, ICONS.empty[0], `${type} has an icon`);
    t.ok(name, `${type} has a name`);
  }
  t.same(iconFor('something-else'), ICONS.empty);
  const size = new Set(Object.values(ICONS).map(([path]) => path)).size;
  const bytes = [...new Set(Object.values(ICONS).map(([path]) => path))].join('').length;
  t.ok(bytes < 1000, `${size} distinct paths in ${bytes} characters`);
});

t.test('the icon is an SVG drawn in the current colour, so a grey container greys it', async (t) => {
  const win = new Window();
  t.teardown(() => win.happyDOM.close());
  const box = win.document.createElement('div');
  box.innerHTML = icon('number').markup;
  const svg = box.firstElementChild as unknown as SVGSVGElement;
  t.equal(svg.namespaceURI, 'http://www.w3.org/2000/svg');
  t.equal(svg.getAttribute('stroke'), 'currentColor');
  t.equal(svg.querySelector('path')?.getAttribute('d'), ICONS.number[0]);
});
