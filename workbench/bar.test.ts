import t from 'tap';
import { type Catalog, choose, createBar, destination } from './bar.ts';
import { installDom } from './test-dom.ts';

/** The bar: what the address chooses, where each picker leads. */

const catalog: Catalog = {
  storefronts: [
    { host: 'www.halden.co.uk', aliases: ['uk.localhost'], locales: ['en-GB'], defaultLocale: 'en-GB' },
    { host: 'www.halden.ch', aliases: ['ch.localhost'], locales: ['de-CH', 'fr-CH'], defaultLocale: 'de-CH' },
  ],
  current: 'www.halden.ch',
  pages: {
    'de-CH': [
      { uuid: '1', title: 'Home', path: '/de' },
      { uuid: '2', title: 'Geschirrspüler', path: '/de/gs' },
    ],
    'fr-CH': [],
  },
};

t.test('the address chooses locale, page and mode; unknown values fall back', async (t) => {
  const chosen = choose(catalog, new URLSearchParams('locale=de-CH&page=2&mode=builder'));
  t.equal(chosen?.storefront.host, 'www.halden.ch');
  t.equal(chosen?.page?.uuid, '2');
  t.equal(chosen?.mode, 'builder');
  const fallback = choose(catalog, new URLSearchParams('locale=xx&page=9&mode=other'));
  t.equal(fallback?.locale, 'de-CH');
  t.equal(fallback?.page?.uuid, '1');
  t.equal(fallback?.mode, 'preview');
  t.equal(choose(catalog, new URLSearchParams('locale=fr-CH'))?.page, undefined);
  t.equal(choose({ ...catalog, storefronts: [] }, new URLSearchParams()), null);
});

t.test('a picker on this storefront changes the query; another storefront opens there with the token', async (t) => {
  const chosen = choose(catalog, new URLSearchParams('locale=de-CH&page=2')) as NonNullable<ReturnType<typeof choose>>;
  const here = { protocol: 'http:', hostname: 'ch.localhost', port: '3000', pathname: '/__workbench' };
  t.same(destination(catalog, chosen, { mode: 'builder' }, here, 't'), { search: 'locale=de-CH&page=2&mode=builder' });
  t.same(destination(catalog, chosen, { host: 'www.halden.co.uk' }, here, 'a b'), {
    href: 'http://uk.localhost:3000/__workbench?mode=preview#token=a%20b',
  });
  const onHost = { ...here, hostname: 'www.halden.ch', port: '' };
  t.same(destination(catalog, chosen, { host: 'www.halden.co.uk' }, onHost, 't'), {
    href: 'http://www.halden.co.uk/__workbench?mode=preview#token=t',
  });
});

t.test('the pickers call `go` with the choice; Comments needs builder mode; the status says', async (t) => {
  const win = installDom(t);
  const chosen = choose(catalog, new URLSearchParams('locale=de-CH')) as NonNullable<ReturnType<typeof choose>>;
  const went: unknown[] = [];
  const bar = createBar(catalog, chosen, (next) => went.push(next));
  const page = bar.element.querySelector('select[name="page"]') as HTMLSelectElement;
  page.value = '2';
  page.dispatchEvent(new win.Event('change') as unknown as Event);
  const locale = bar.element.querySelector('select[name="locale"]') as HTMLSelectElement;
  locale.value = 'fr-CH';
  locale.dispatchEvent(new win.Event('change') as unknown as Event);
  t.same(went, [{ page: '2' }, { locale: 'fr-CH', page: '' }]);
  t.equal(bar.comments.disabled, true);
  t.equal(bar.publish.disabled, true);
  bar.say('Draft not saved', 'error');
  const status = bar.element.querySelector('output');
  t.equal(status?.textContent, 'Draft not saved');
  t.equal(status?.dataset.kind, 'error');
});
