import t from 'tap';
import { sanitizeCmsHtml, sanitizeInlineHtml } from './sanitize.ts';

const DOORS = [
  ['rich text', sanitizeCmsHtml],
  ['inline text', sanitizeInlineHtml],
] as const;

/** Nothing that can run code may survive, whatever the spelling. */
const ATTACKS: [string, string][] = [
  ['script element', '<p>hi</p><script>alert(1)</script>'],
  ['script element, mixed case', '<p>hi</p><ScRiPt>alert(1)</sCrIpT>'],
  ['image with onerror', '<img src=x onerror="alert(1)">'],
  ['onerror on an allowed tag', '<strong onerror="alert(1)" onclick="alert(2)">hi</strong>'],
  ['onmouseover on a link', '<a href="https://example.com" onmouseover="alert(1)">x</a>'],
  ['javascript: link', '<a href="javascript:alert(1)">x</a>'],
  ['JavaScript: link in mixed case', '<a href="JaVaScRiPt:alert(1)">x</a>'],
  ['entity-encoded javascript: link', '<a href="jav&#x61;script&#58;alert(1)">x</a>'],
  [
    'decimal-entity javascript: link',
    '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;:alert(1)">x</a>',
  ],
  ['javascript: with a tab inside', '<a href="java\tscript:alert(1)">x</a>'],
  ['javascript: with leading spaces', '<a href="   javascript:alert(1)">x</a>'],
  ['vbscript: link', '<a href="vbscript:msgbox(1)">x</a>'],
  ['data: link', '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>'],
  ['iframe', '<iframe src="https://evil.example"></iframe>'],
  ['svg with onload', '<svg onload="alert(1)"><circle/></svg>'],
  ['style element', '<style>body{background:url(javascript:alert(1))}</style>'],
  ['object / embed', '<object data="x.swf"></object><embed src="x.swf">'],
  ['form with action', '<form action="javascript:alert(1)"><button>go</button></form>'],
];

t.test('nothing that runs code survives either door', async (t) => {
  for (const [door, sanitize] of DOORS) {
    for (const [label, html] of ATTACKS) {
      const out = sanitize(html).toLowerCase();
      t.notMatch(
        out,
        /<script|<iframe|<img|<svg|<style|<object|<embed|<form/,
        `${door}, ${label}: no dangerous element`,
      );
      t.notMatch(out, /\son[a-z]+\s*=/, `${door}, ${label}: no event handler`);
      t.notMatch(out, /(java|vb)\s*script\s*:|data:text/, `${door}, ${label}: no script URL`);
    }
  }
});

t.test('the text of a script is dropped, not shown', async (t) => {
  t.equal(sanitizeCmsHtml('<p>hi</p><script>alert(1)</script>'), '<p>hi</p>');
  t.equal(sanitizeInlineHtml('ok<script>alert(1)</script>'), 'ok');
});

t.test('style attributes are removed, the text stays', async (t) => {
  t.equal(sanitizeCmsHtml('<p style="position:fixed;top:0">Kühl</p>'), '<p>Kühl</p>');
  t.equal(sanitizeInlineHtml('<span style="color:red">rot</span>'), '<span>rot</span>');
});

t.test('a dangerous link loses its href but keeps its text', async (t) => {
  t.equal(sanitizeCmsHtml('<a href="javascript:alert(1)">more</a>'), '<a>more</a>');
  t.equal(sanitizeCmsHtml('<a href="//evil.example/x">more</a>'), '<a>more</a>', 'protocol-relative');
  t.equal(sanitizeCmsHtml('<a href="/\\evil.example/x">more</a>'), '<a>more</a>', 'backslash host');
});

t.test('rich text keeps its formatting', async (t) => {
  const cases: string[] = [
    '<p>Text with <strong>bold</strong>, <em>emphasis</em> and <u>underline</u></p>',
    '<h2>Title</h2><h3>Sub</h3><h4>Minor</h4>',
    '<ul><li>one</li><li>two</li></ul><ol><li>first</li></ol>',
    '<p>CO<sub>2</sub> and m<sup>2</sup><br /><small>small print</small></p>',
    '<blockquote>quote</blockquote><p><mark>marked</mark> <code>code</code> <s>old</s></p>',
    '<p><abbr title="Energy Efficiency Class">EEC</abbr></p>',
    '<p><a href="https://www.halden.ch/de" title="Home">Home</a></p>',
    '<p><a href="mailto:info@halden.ch">mail</a> <a href="tel:+41441234567">call</a></p>',
    '<p><a href="/de/cs/kueche-1">relative</a></p>',
  ];
  for (const html of cases) t.equal(sanitizeCmsHtml(html), html, html);
});

t.test('inline text keeps inline formatting and drops blocks around it', async (t) => {
  t.equal(
    sanitizeInlineHtml('<strong>1</strong> <em>2</em> <sup>3</sup> <sub>4</sub> <a href="https://x.example/">5</a>'),
    '<strong>1</strong> <em>2</em> <sup>3</sup> <sub>4</sub> <a href="https://x.example/">5</a>',
  );
  t.equal(sanitizeInlineHtml('<p>Price <b>incl.</b> VAT</p>'), 'Price <b>incl.</b> VAT');
  t.equal(sanitizeInlineHtml('<h2>Big</h2>'), 'Big');
});

t.test('a link that opens a new window does not hand over its opener', async (t) => {
  for (const [door, sanitize] of DOORS) {
    const out = sanitize('<a href="https://partner.example" target="_blank">partner</a>');
    t.match(out, /rel="noopener noreferrer"/, `${door}: rel added`);
    t.match(out, /target="_blank"/, `${door}: target kept`);

    const overridden = sanitize('<a href="https://partner.example" target="_blank" rel="opener">partner</a>');
    t.match(overridden, /rel="noopener noreferrer"/, `${door}: a CMS rel cannot re-enable the opener`);
    t.notMatch(overridden, /rel="opener"/);
  }
  t.notMatch(sanitizeCmsHtml('<a href="https://x.example/">same window</a>'), /rel=/, 'same-window links unchanged');
});

t.test('text is escaped, not interpreted', async (t) => {
  t.equal(sanitizeCmsHtml('<p>5 &lt; 6 &amp; "quoted"</p>'), '<p>5 &lt; 6 &amp; "quoted"</p>');
  t.equal(sanitizeInlineHtml('a < b'), 'a &lt; b');
});

t.test('each door remembers its own results: the same text asked twice, in either order', async (t) => {
  const text = '<p>Energy class <strong>A</strong></p><script>alert(1)</script>';
  for (let round = 0; round < 2; round++) {
    t.equal(sanitizeInlineHtml(text), 'Energy class <strong>A</strong>', `inline door, round ${round + 1}`);
    t.equal(sanitizeCmsHtml(text), '<p>Energy class <strong>A</strong></p>', `rich-text door, round ${round + 1}`);
  }
  const huge = `<p>${'x'.repeat(300_000)}</p><script>1</script>`;
  t.equal(sanitizeCmsHtml(huge), `<p>${'x'.repeat(300_000)}</p>`, 'text too large to keep is still cleaned');
});
