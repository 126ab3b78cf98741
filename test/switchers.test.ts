import t from 'tap';
import { languageOf } from '../common/locales.ts';
import { isMultilingual } from '../common/site.ts';
import { loadSitesConfig } from '../server/config/sites.ts';
import { demoServer, fetchPage, HOSTS } from './helpers.ts';

/** The switchers as rendered: the current choice is shown, never offered as a link (no switch to itself). */
const app = await demoServer();
t.teardown(() => app.close());

/** The markup of the element with `class` up to its closing tag (switchers are not nested). */
function section(html: string, className: string, tag: string): string {
  const start = html.indexOf(`class="${className}"`);
  return start < 0 ? '' : html.slice(start, html.indexOf(`</${tag}>`, start));
}

t.test('the current language is not a link; the others are', async (t) => {
  const page = await app.inject({
    url: '/fr/cs/cuisine/lave-vaisselle-aquasense-60-4711',
    headers: { host: HOSTS.ch },
  });
  t.equal(page.statusCode, 200);
  const switcher = section(page.body, 'language-switcher', 'nav');
  t.ok(switcher, 'a multilingual storefront has a language switcher');
  t.match(switcher, /<span lang="fr-CH" aria-current="true">/);
  t.notMatch(switcher, /<a [^>]*hrefLang="fr-CH"/);
  t.match(switcher, /<a href="\/de\/cs\/[^"]+-4711" hrefLang="de-CH"/);
  t.match(switcher, /<a href="\/it\/cs\/[^"]+-4711" hrefLang="it-CH"/);
});

t.test('a single-language storefront has no language switcher', async (t) => {
  const res = await app.inject({ url: '/', headers: { host: HOSTS.uk } });
  t.equal(section(res.body, 'language-switcher', 'nav'), '');
});

t.test('choosing the country you are in keeps the language and the page', async (t) => {
  const { config } = loadSitesConfig('config/sites.json');
  const multilingual = config.sites.filter(isMultilingual);
  t.ok(multilingual.length > 0, 'the demo has multilingual storefronts');
  for (const site of multilingual) {
    for (const locale of site.locales) {
      const language = languageOf(locale);
      // The home page and a product page (its slug differs by language: the canonical one is followed).
      for (const url of [`/${language}`, `/${language}/cs/product-4711`]) {
        const page = await fetchPage(app, site.host, url);
        t.equal(page.status, 200, `${site.host}${url}`);
        const own = /<a href="([^"]*)" hrefLang="([^"]*)" aria-current="true">/.exec(
          section(page.body, 'country-selector', 'details'),
        );
        t.ok(own, `${site.host}${url}: the country selector marks this country`);
        t.equal(own?.[1], site.url + page.url, `${site.host}${url}: this country's link is this page`);
        t.equal(own?.[2], locale, `${site.host}${url}: in this language`);
      }
    }
  }
});
