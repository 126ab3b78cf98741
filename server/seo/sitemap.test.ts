import t from 'tap';
import { robotsTxt } from './robots.ts';
import { sitemapDocuments, sitemapXml, xmlEscape } from './sitemap.ts';

t.test('values are entity-escaped in text and attributes', async (t) => {
  t.equal(xmlEscape(`a&b<c>"d'`), 'a&amp;b&lt;c&gt;&quot;d&apos;');
  const xml = sitemapXml([
    { loc: 'https://x.test/cs/a&b', alternates: [{ hreflang: 'x-default', href: 'https://x.test/?a=1&b="2"' }] },
  ]);
  t.match(xml, '<loc>https://x.test/cs/a&amp;b</loc>');
  t.match(xml, 'href="https://x.test/?a=1&amp;b=&quot;2&quot;"');
  t.notMatch(xml, 'a&b');
});

t.test('lastmod is written only when known', async (t) => {
  t.match(sitemapXml([{ loc: 'https://x.test/', lastmod: '2026-01-02T00:00:00.000Z', alternates: [] }]), '<lastmod>');
  t.notMatch(sitemapXml([{ loc: 'https://x.test/', alternates: [] }]), '<lastmod>');
});

t.test('one file up to the limit, an index of parts past it', async (t) => {
  const urls = Array.from({ length: 5 }, (_, i) => ({ loc: `https://x.test/${i}`, alternates: [] }));
  const table = [
    { perFile: 5, index: false, parts: 1 },
    { perFile: 4, index: true, parts: 2 },
    { perFile: 2, index: true, parts: 3 },
    { perFile: 1, index: true, parts: 5 },
  ];
  for (const row of table) {
    const docs = sitemapDocuments('https://x.test', urls, row.perFile);
    t.equal(docs.parts.length, row.parts, `${row.perFile} per file`);
    t.equal(docs.index !== null, row.index);
    if (docs.index) {
      t.equal((docs.index.match(/<sitemap>/g) ?? []).length, row.parts);
      t.match(docs.index, `<loc>https://x.test/sitemap-${row.parts}.xml</loc>`);
    }
    const total = docs.parts.reduce((n, part) => n + (part.match(/<url>/g) ?? []).length, 0);
    t.equal(total, 5, 'every URL in exactly one part');
  }
  t.equal(
    sitemapDocuments('https://x.test', []).parts.length,
    1,
    'an empty storefront still has a (valid, empty) sitemap',
  );
});

t.test('robots.txt allows pages, keeps crawlers out of preview, APIs and tools, and names the sitemap', async (t) => {
  const text = robotsTxt('https://www.halden.ch', ['de', 'fr']);
  t.match(text, /^User-agent: \*$/m);
  for (const path of [
    '/cs/api/',
    '/graphql',
    '/__workbench',
    '/_applicationConfiguration',
    '/de/cs/live/',
    '/fr/cs/live$',
  ])
    t.match(text, `Disallow: ${path}\n`);
  t.notMatch(text, /^Disallow: \/$/m, 'the site itself is crawlable');
  t.notMatch(text, /^Disallow: \/cs\/live\n/m, 'pages under a taxonomy starting with "live" stay crawlable');
  t.match(text, /^Sitemap: https:\/\/www\.halden\.ch\/sitemap\.xml$/m);
});

t.test('a part never passes the byte limit either: it splits by size as well as by count', async (t) => {
  const urls = Array.from({ length: 20 }, (_, i) => ({ loc: `https://x.test/page-${i}`, alternates: [] }));
  const whole = Buffer.byteLength(sitemapXml(urls));
  const maxBytes = Math.ceil(whole / 3);
  const docs = sitemapDocuments('https://x.test', urls, 50_000, maxBytes);
  t.ok(docs.parts.length >= 3, `${docs.parts.length} parts for a third of the bytes each`);
  for (const part of docs.parts) t.ok(Buffer.byteLength(part) <= maxBytes, 'each part within the limit');
  const total = docs.parts.reduce((n, part) => n + (part.match(/<url>/g) ?? []).length, 0);
  t.equal(total, 20, 'every URL in exactly one part');
  t.equal(docs.parts.join('').split('<urlset').length - 1, docs.parts.length, 'each part is a whole urlset');
});
