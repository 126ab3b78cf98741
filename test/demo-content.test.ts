import { readdirSync, readFileSync } from 'node:fs';
import t from 'tap';
import { FootnoteCollection } from '../client/page/footnotes.ts';
import type { PageEntry, TemplateEntry } from '../common/content.ts';
import { SUPPORTED_LOCALES } from '../common/locales.ts';
import { loadSitesConfig } from '../server/config/sites.ts';
import { createEmbeddedStore } from '../server/content/store.ts';

/** The demo store is complete, valid, localised, and priced in each storefront's currency. */
const store = createEmbeddedStore({ dir: 'content' });
const { config } = loadSitesConfig('config/sites.json');
const PAGE_IDS = ['125', '200', '300', '4711', '4712', '5810', '6020', '7000', '8000', '9000', '9500', '9501', '9600'];
const PRODUCT_IDS = ['4711', '4712', '5810', '6020'];

t.test('the demo config lists 29 locales on 25 country domains, each with a .localhost alias', async (t) => {
  t.equal(config.sites.length, 25);
  t.same(config.sites.flatMap((s) => s.locales).sort(), [...SUPPORTED_LOCALES].sort());
  for (const site of config.sites)
    t.match(site.aliases.join(' '), /\.localhost\b/, `${site.host} has a .localhost alias`);
  t.equal(config.forceHost, 'www.halden.ch');
});

for (const site of config.sites) {
  for (const locale of site.locales) {
    t.test(`${locale} (${site.host}): every entry validates and the pages are complete`, async (t) => {
      for (const file of readdirSync(`content/${locale}/pages`)) {
        const uuid = file.replace(/\.json$/, '');
        const page = (await store.getPage(uuid, locale)) as PageEntry;
        t.equal(page.uuid, uuid, `${file} carries its own uuid`);
        t.equal(page.locale, locale);
        const ref = page.template[0];
        t.ok(ref, `${file} names a template`);
        const template = await store.getEntry<TemplateEntry>(ref?._content_type_uid ?? '', ref?.uid ?? '', locale);
        t.ok(template, `${file}'s template exists and validates`);
      }
      t.same(
        readdirSync(`content/${locale}/pages`)
          .map((f) => f.replace('.json', ''))
          .sort(),
        [...PAGE_IDS].sort(),
      );
      const app = await store.getApplicationConfiguration(site.host, locale);
      t.equal(app.globals.dhfIsEnabled, locale !== 'en-IE', 'only the Irish storefront shows the header-less variant');
      t.ok(app.navigation.header?.links.length, 'navigation header has links');

      for (const id of PRODUCT_IDS) {
        const page = (await store.getPage(id, locale)) as PageEntry;
        const template = (await store.getEntry<TemplateEntry>(
          'page_template',
          page.template[0]?.uid ?? '',
          locale,
        )) as TemplateEntry;
        const collection = new FootnoteCollection();
        collection.register(template.body_components);
        const types = new Set(collection.footnotes.map((f) => f.type));
        t.ok(types.has('pricing') && types.has('content'), `product ${id} carries pricing and content footnotes`);
        const json = JSON.stringify(template);
        t.match(json, /LEGAL_INFORMATION/);
        t.match(json, /PATENT_INFORMATION/);
        t.match(json, new RegExp(`"currency":"${site.currency}"`), `prices in ${site.currency}`);
      }
      const warranty = (await store.getEntry<TemplateEntry>('page_template', 'warranty', locale)) as TemplateEntry;
      t.ok(
        warranty.body_components.some((c) => c._content_type_uid === 'legal_section_block'),
        'the warranty page has its own legal section',
      );
      const service = (await store.getPage('8000', locale)) as PageEntry;
      t.ok(
        service.url_taxonomy[0]?.url_taxonomy_segments.some((s) => s.exclude_from_breadcrumbs),
        'the service page excludes a taxonomy segment',
      );
    });
  }
}

t.test('content is written in each language, not copied from English', async (t) => {
  const english = JSON.parse(readFileSync('content-src/en-GB.json', 'utf8'));
  for (const locale of SUPPORTED_LOCALES.filter((l) => !l.startsWith('en-'))) {
    const text = JSON.parse(readFileSync(`content-src/${locale}.json`, 'utf8'));
    t.not(text.home.hero_headline, english.home.hero_headline, `${locale} home headline is translated`);
    t.not(
      text.products.oven.features[0].text,
      english.products.oven.features[0].text,
      `${locale} feature text is translated`,
    );
  }
});
