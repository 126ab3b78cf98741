import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Window } from 'happy-dom';
import t, { type Test } from 'tap';
import { LAYOUT_NAMES, LAYOUTS } from '../client/layouts/layouts.ts';
import { languageOf } from '../common/locales.ts';
import { demoServer } from './helpers.ts';

/**
 * The demo shows a newcomer every layout, on pages where each fits, and every storefront has an
 * accessibility statement in each of its languages, linked from the footer of its pages.
 */
let app: FastifyInstance;
t.before(async () => {
  app = await demoServer();
});
t.teardown(() => app.close());

const sites = JSON.parse(readFileSync('config/sites.json', 'utf8')).sites as { host: string; locales: string[] }[];
const rows = sites.flatMap((s) => s.locales.map((locale) => ({ host: s.host, locale, locales: s.locales })));
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const prefixOf = (locale: string, locales: string[]) => (locales.length > 1 ? `/${languageOf(locale)}` : '');

const window = new Window();
t.teardown(() => window.close());
/** Parsed, never run: no script of the page executes. */
function documentOf(html: string): Document {
  return new window.DOMParser().parseFromString(html, 'text/html') as unknown as Document;
}

/** The demo pages of a locale with their template's layout and their canonical path. */
function pagesOf(locale: string, prefix: string): { id: string; layout: string; path: string; template: string }[] {
  const dir = join('content', locale);
  return readdirSync(join(dir, 'pages')).map((file) => {
    const page = readJson(join(dir, 'pages', file));
    const template = readJson(join(dir, 'page_template', `${page.template[0].uid}.json`));
    const segments = (page.url_taxonomy[0]?.url_taxonomy_segments ?? []).map((s: { segment: string }) => s.segment);
    const id = file.replace('.json', '');
    const path = id === '125' ? prefix || '/' : `${prefix}/cs/${[...segments, `${page.slug}-${id}`].join('/')}`;
    return { id, layout: template.layout ?? 'default', path, template: template.uid };
  });
}

t.test('every layout is used by a demo page in every locale, and renders its own chrome', async (t) => {
  for (const { host, locale, locales } of rows) {
    const pages = pagesOf(locale, prefixOf(locale, locales));
    for (const layout of LAYOUT_NAMES) {
      const page = pages.find((p) => p.layout === layout);
      if (!page) {
        t.fail(`${locale}: no page uses the ${layout} layout`);
        continue;
      }
      const res = await app.inject({ url: page.path, headers: { host } });
      t.equal(res.statusCode, 200, `${locale} ${layout}: ${page.path}`);
      const doc = documentOf(res.body);
      t.equal(doc.body.getAttribute('data-layout'), layout, `${locale}: ${page.path} renders ${layout}`);
      t.equal(doc.querySelectorAll('footer.site-footer').length, LAYOUTS[layout].footer ? 1 : 0, `${layout}: footer`);
      t.equal(doc.querySelectorAll('nav.breadcrumbs').length, LAYOUTS[layout].breadcrumbs ? 1 : 0, `${layout}: crumbs`);
      if (LAYOUTS[layout].footer) footerLinksStatement(t, doc, locale, pages, `${page.path}`);
    }
  }
});

/** The footer of a page links the locale's accessibility statement, named in the page's language. */
function footerLinksStatement(
  t: Test,
  doc: Document,
  locale: string,
  pages: { id: string; path: string }[],
  where: string,
): void {
  const statement = pages.find((p) => p.id === '9000');
  const links = [...doc.querySelectorAll('footer.site-footer a')].filter(
    (a) => statement && a.getAttribute('href') === statement.path,
  );
  t.equal(links.length, 1, `${locale} ${where}: the footer links the accessibility statement`);
  t.equal(
    links[0]?.textContent,
    readJson(`content-src/${locale}.json`).accessibility.title,
    `${locale}: in its language`,
  );
}

t.test('every storefront has an accessibility statement in each of its languages', async (t) => {
  const english = readJson('content-src/en-GB.json').accessibility;
  for (const { host, locale, locales } of rows) {
    const source = readJson(`content-src/${locale}.json`).accessibility;
    const pages = pagesOf(locale, prefixOf(locale, locales));
    const statement = pages.find((p) => p.id === '9000');
    // Every page whose layout has a footer carries the link in its footer zone (rendered above).
    for (const page of pages.filter((p) => LAYOUTS[p.layout as keyof typeof LAYOUTS].footer)) {
      const footer = JSON.stringify(
        readJson(join('content', locale, 'page_template', `${page.template}.json`)).footer_components,
      );
      t.ok(footer.includes(`"url":"${statement?.path}"`), `${locale} ${page.path}: its footer links the statement`);
    }
    const res = await app.inject({ url: statement?.path ?? '/', headers: { host } });
    t.equal(res.statusCode, 200, `${locale}: the statement answers 200`);
    const doc = documentOf(res.body);
    t.equal(doc.documentElement.getAttribute('lang'), locale, `${locale}: in the page's language`);
    t.equal(doc.querySelector('h1')?.textContent, source.title);
    const text = doc.querySelector('main')?.textContent ?? '';
    t.match(text, /WCAG\)? 2\.2 /, `${locale}: the conformance status`);
    t.match(text, 'AA', `${locale}: level AA`);
    t.ok(doc.querySelector('main a[href="mailto:accessibility@halden.example"]'), `${locale}: a feedback contact`);
    for (const section of source.sections) t.match(text, section.title, `${locale}: ${section.title}`);
    if (!locale.startsWith('en'))
      for (const section of english.sections)
        t.notMatch(text, section.title, `${locale}: "${section.title}" is not left in English`);
  }
});
