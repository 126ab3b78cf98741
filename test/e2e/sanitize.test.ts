import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import t from 'tap';
import { launchBrowser } from './browser.ts';

/**
 * The preview layer's HTML door in Chromium (DOMPurify needs a real DOM): the editor's diff HTML
 * keeps only what the server's allow-list keeps (common/html-allow-list.ts), plus the
 * `<cs-compare>` wrapper with its class.
 */

let browser: Browser;
let page: Page;

t.before(async () => {
  const bundled = await build({
    entryPoints: ['sdk/sanitize.ts'],
    bundle: true,
    format: 'iife',
    globalName: 'vitrineSanitize',
    write: false,
    logLevel: 'silent',
  });
  browser = await launchBrowser();
  page = await browser.newPage();
  await page.setContent('<!doctype html><body></body>');
  await page.addScriptTag({ content: bundled.outputFiles[0]?.text ?? '' });
});
t.teardown(() => browser?.close());

const clean = (html: string) =>
  page.evaluate((input) => {
    const { sanitizeHtml } = (window as unknown as { vitrineSanitize: typeof import('../../sdk/sanitize.ts') })
      .vitrineSanitize;
    const box = document.createElement('div');
    box.append(sanitizeHtml(input, window as never));
    return box.innerHTML;
  }, html);

const CASES: [string, string, string][] = [
  [
    'the diff wrapper and its class',
    '<cs-compare class="cs-compare--added">60</cs-compare>',
    '<cs-compare class="cs-compare--added">60</cs-compare>',
  ],
  [
    'text formatting',
    '<p><strong>A</strong> <em>b</em> <abbr title="x">c</abbr></p>',
    '<p><strong>A</strong> <em>b</em> <abbr title="x">c</abbr></p>',
  ],
  ['tags outside the list lose their markup', '<h1>Title</h1><div>d</div>', 'Titled'],
  ['class and style only on the wrapper', '<p class="x" style="color:red">p</p>', '<p>p</p>'],
  ['images and handlers', '<img src="/a.png" onerror="alert(1)">x', 'x'],
  ['scripts', '<script>alert(1)</script>y', 'y'],
  ['javascript: links', '<a href="javascript:alert(1)">z</a>', '<a>z</a>'],
  ['protocol-relative links', '<a href="//evil.example/">z</a>', '<a>z</a>'],
  [
    'allowed schemes and relative links',
    '<a href="mailto:a@b.c">m</a><a href="/x">r</a>',
    '<a href="mailto:a@b.c">m</a><a href="/x">r</a>',
  ],
  [
    'new-window links cannot reach the opener',
    '<a href="https://a.example/" target="_blank">n</a>',
    '<a href="https://a.example/" target="_blank" rel="noopener noreferrer">n</a>',
  ],
  ['title only where the server allows it', '<span title="t">s</span>', '<span>s</span>'],
];

for (const [name, input, expected] of CASES)
  t.test(name, async (t) => {
    t.equal(await clean(input), expected);
  });
