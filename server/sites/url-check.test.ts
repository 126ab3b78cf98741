import t from 'tap';
import type { Site } from '../../common/site.ts';
import { createMismatchLogger, hostMismatch } from './url-check.ts';

const site = (url: string, aliases: string[] = ['ch.localhost']): Site => ({
  host: 'www.halden.ch',
  aliases,
  locales: ['de-CH'],
  defaultLocale: 'de-CH',
  url,
  strategy: 'prefix',
  routeRules: {},
  crossOrigin: false,
  currency: 'CHF',
});

t.test('a request host that is neither the URL host nor an alias is a mismatch', async (t) => {
  const table: [string, string, boolean][] = [
    ['https://www.halden.ch', 'www.halden.ch', false],
    ['https://www.halden.ch', 'ch.localhost', false],
    ['https://halden-shop.ch', 'www.halden.ch', true],
    ['https://halden-shop.ch', 'ch.localhost', false],
    ['https://WWW.Halden.ch:8443', 'www.halden.ch', false],
  ];
  for (const [url, host, expected] of table) t.equal(hostMismatch(site(url), host), expected, `${url} ← ${host}`);
});

t.test('each storefront is reported once, whatever the traffic', async (t) => {
  const lines: object[] = [];
  const report = createMismatchLogger({ error: (obj) => lines.push(obj) });
  const moved = site('https://halden-shop.ch');
  for (let i = 0; i < 5; i++) report(moved, 'www.halden.ch');
  report(site('https://www.halden.ch'), 'www.halden.ch');
  t.same(lines, [{ site: 'www.halden.ch', requestHost: 'www.halden.ch', url: 'https://halden-shop.ch' }]);
});

t.test('a production server logs a storefront reached on another host than its URL, once', async (t) => {
  const { Writable } = await import('node:stream');
  const { demoServer } = await import('../../test/helpers.ts');
  const { loadSitesConfig } = await import('../config/sites.ts');
  const config = loadSitesConfig('config/sites.json').config;
  const sites = config.sites.map((s) => (s.host === 'www.halden.ch' ? { ...s, url: 'https://halden-shop.ch' } : s));
  const lines: { msg?: string; requestHost?: string }[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const app = await demoServer({ sites: { ...config, sites }, logger: { level: 'error', stream } });
  t.teardown(() => app.close());
  for (const host of ['www.halden.ch', 'www.halden.ch', 'ch.localhost', 'www.halden.de'])
    await app.inject({ url: '/de', headers: { host } });
  const mismatches = lines.filter((l) => l.msg?.startsWith('The request host differs from the site URL host'));
  t.same(
    mismatches.map((l) => l.requestHost),
    ['www.halden.ch'],
  );
});
