import { Window } from 'happy-dom';
import t from 'tap';
import type { PageWindow } from '../dom.ts';
import { MORPHED_EVENT, type MorphedDetail, morphPage } from './morph.ts';

/**
 * The page morph in happy-dom: content updates in place, hydrated islands are never reached into,
 * changed islands are swapped, new ones announced, layer nodes and focus survive.
 */

const happy = new Window({ url: 'https://www.halden.co.uk/cs/kitchen/aquasense-60-dishwasher-4711?live_preview=h1' });
const win = happy as unknown as PageWindow;
// The morph reads these globals, as it may in a browser.
const globals = globalThis as Record<string, unknown>;
for (const name of ['document', 'Element', 'Node', 'Document', 'HTMLElement', 'CSS'])
  globals[name] = (win as unknown as Record<string, unknown>)[name];
t.teardown(() => happy.happyDOM.close());

const island = (name: string, props: string, inner: string, extra = '') =>
  `<vitrine-island data-name="${name}" data-url="/assets/${name}.js" data-strategy="idle" data-props='${props}'${extra}>${inner}</vitrine-island>`;

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html><head><title>${title}</title></head><body data-layout="default">${body}</body></html>`;
}

t.test('an entry change morphs the page in place and tells the island runtime what changed', async (t) => {
  const doc = win.document;
  doc.title = 'Old';
  doc.body.innerHTML = `${island('header', '{"n":1}', '<header id="hydrated">React owns this</header>', ' data-hydrated=""')}
<main id="main"><h1 data-cslp="page.p.en-GB.title">Old heading</h1><label>Search <input id="q"></label>
${island('price', '{"amount":499}', '<span>£499</span>', ' data-hydrated=""')}</main>
<button id="cslp-tooltip" data-cslp-layer="">Edit</button>`;
  const header = doc.querySelector('vitrine-island[data-name="header"]');
  const headerContent = doc.getElementById('hydrated');
  const heading = doc.querySelector('h1');
  const price = doc.querySelector('vitrine-island[data-name="price"]');
  const input = doc.getElementById('q') as HTMLInputElement;
  input.focus();
  input.value = 'dish';
  let detail: MorphedDetail | undefined;
  doc.addEventListener(MORPHED_EVENT, (event) => {
    detail = (event as CustomEvent<MorphedDetail>).detail;
  });

  morphPage(
    win,
    page(
      'New',
      `${island('header', '{"n":1}', '<header>server copy</header>')}
<main id="main"><h1 data-cslp="page.p.en-GB.title">New heading</h1><label>Search <input id="q"></label>
${island('price', '{"amount":449}', '<span>£449</span>')}
${island('parallax', '{"speed":2}', '<div>banner</div>', ' data-strategy="visible"')}</main>`,
    ),
  );

  t.equal(doc.querySelector('h1'), heading, 'the same element, morphed');
  t.equal(heading?.textContent, 'New heading');
  t.equal(doc.querySelector('vitrine-island[data-name="header"]'), header, 'an unchanged island stays');
  t.equal(doc.getElementById('hydrated'), headerContent, 'and its hydrated DOM is untouched');
  t.ok(header?.hasAttribute('data-hydrated'));
  const newPrice = doc.querySelector('vitrine-island[data-name="price"]');
  t.not(newPrice, price, 'a changed island is swapped for the server element');
  t.equal(newPrice?.getAttribute('data-props'), '{"amount":449}');
  t.equal(newPrice?.textContent, '£449');
  t.ok(doc.getElementById('cslp-tooltip'), 'layer nodes are kept');
  t.equal(doc.activeElement, input, 'focus stays');
  t.equal(input.value, 'dish', 'and so does what was typed');
  t.equal(doc.title, 'New');
  t.same(
    detail?.added.map((el) => el.getAttribute('data-name')),
    ['price', 'parallax'],
  );
  t.same(detail?.removed, [price]);
});

t.test('an island that disappears is reported removed', async (t) => {
  const doc = win.document;
  doc.body.innerHTML = `<main>${island('price', '{"amount":1}', '<span>1</span>', ' data-hydrated=""')}</main>`;
  const price = doc.querySelector('vitrine-island');
  let detail: MorphedDetail | undefined;
  doc.addEventListener(MORPHED_EVENT, (event) => {
    detail = (event as CustomEvent<MorphedDetail>).detail;
  });
  morphPage(win, page('x', '<main><p>No price any more</p></main>'));
  t.equal(doc.querySelector('vitrine-island'), null);
  t.same(detail?.removed, [price]);
  t.same(detail?.added, []);
});
