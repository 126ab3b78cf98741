import t from 'tap';
import {
  contentstackHosts,
  entryPath,
  isMissingEntry,
  pageQueryPath,
  siteLocale,
  stackLocale,
} from './contentstack-api.ts';

t.test('each region picks its documented Delivery and Preview hosts; explicit hosts win', async (t) => {
  const rows = [
    [undefined, 'https://cdn.contentstack.io', 'https://rest-preview.contentstack.com'],
    ['us', 'https://cdn.contentstack.io', 'https://rest-preview.contentstack.com'],
    ['eu', 'https://eu-cdn.contentstack.com', 'https://eu-rest-preview.contentstack.com'],
    ['azure-na', 'https://azure-na-cdn.contentstack.com', 'https://azure-na-rest-preview.contentstack.com'],
    ['azure-eu', 'https://azure-eu-cdn.contentstack.com', 'https://azure-eu-rest-preview.contentstack.com'],
    ['gcp-na', 'https://gcp-na-cdn.contentstack.com', 'https://gcp-na-rest-preview.contentstack.com'],
  ] as const;
  for (const [region, delivery, preview] of rows) {
    t.same(contentstackHosts({ region }), { delivery, preview }, region ?? 'no region');
  }
  t.same(contentstackHosts({ region: 'eu', host: 'http://127.0.0.1:9001', previewHost: 'http://127.0.0.1:9002' }), {
    delivery: 'http://127.0.0.1:9001',
    preview: 'http://127.0.0.1:9002',
  });
  t.same(contentstackHosts({ host: 'https://proxy.example/cs/v3/', previewHost: 'https://preview.example/' }), {
    delivery: 'https://proxy.example/cs',
    preview: 'https://preview.example',
  });
  t.same(
    contentstackHosts({ region: 'eu', host: 'http://127.0.0.1:9001' }).preview,
    'https://eu-rest-preview.contentstack.com',
  );
});

t.test('stack locale codes are the site codes in lower case, and back', async (t) => {
  t.equal(stackLocale('de-CH'), 'de-ch');
  t.equal(siteLocale('de-ch'), 'de-CH');
  t.equal(siteLocale('EN-gb'), 'en-GB');
  t.equal(siteLocale('de'), undefined);
  t.equal(siteLocale('de-ch"><'), undefined);
});

t.test('paths: the page query includes the template and its three zones; ids are encoded', async (t) => {
  t.equal(
    pageQueryPath(),
    '/v3/content_types/page/entries?include[]=template&include[]=template.header_components' +
      '&include[]=template.body_components&include[]=template.footer_components',
  );
  t.equal(entryPath('hero', 'a/b'), '/v3/content_types/hero/entries/a%2Fb');
});

t.test('a missing entry is 404, or 422 with error code 141; other 422s are faults', async (t) => {
  t.ok(isMissingEntry(404, ''));
  t.ok(isMissingEntry(422, { error_code: 141, error_message: "The requested entry doesn't exist." }));
  t.notOk(isMissingEntry(422, { error_code: 118 }));
  t.notOk(isMissingEntry(500, { error_code: 141 }));
});
