import t from 'tap';
import { escapeHtml, Html, html, when } from './html.ts';

/** Templates: text never becomes markup; only markup made by `html` nests as markup. */

const CASES: [string, unknown, string][] = [
  ['text', 'AquaSense 60', 'AquaSense 60'],
  ['markup characters in text', '<img src=x onerror=alert(1)>', '&lt;img src=x onerror=alert(1)&gt;'],
  ['quotes, for attribute values', `"a" & 'b'`, '&quot;a&quot; &amp; &#39;b&#39;'],
  ['numbers', 42, '42'],
  ['nothing', null, ''],
  ['absent', undefined, ''],
  ['false, for a part left out', false, ''],
  ['lists, each item escaped', ['<a>', 'b'], '&lt;a&gt;b'],
  ['nested markup', new Html('<b>x</b>'), '<b>x</b>'],
];

for (const [name, part, expected] of CASES)
  t.test(`${name} in a template`, async (t) => {
    t.equal(html`${part as string}`.markup, expected);
  });

t.test('escaped text stays escaped inside an attribute', async (t) => {
  const value = '" onmouseover="alert(1)';
  t.equal(
    html`<button title="${value}">x</button>`.markup,
    '<button title="&quot; onmouseover=&quot;alert(1)">x</button>',
  );
});

t.test('nested templates and lists of templates', async (t) => {
  const items = ['a<', 'b'].map((item) => html`<li>${item}</li>`);
  t.equal(html`<ul>${items}</ul>`.markup, '<ul><li>a&lt;</li><li>b</li></ul>');
});

t.test('an attribute present or absent', async (t) => {
  t.equal(html`<button ${when(true, 'disabled')}>`.markup, '<button disabled>');
  t.equal(html`<button ${when(false, 'disabled')}>`.markup, '<button >');
});

t.test('escapeHtml alone', async (t) => {
  t.equal(escapeHtml('a&b<c>"d\'e'), 'a&amp;b&lt;c&gt;&quot;d&#39;e');
});
