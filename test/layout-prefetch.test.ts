import t from 'tap';
import { LAYOUT_NAMES } from '../client/layouts/layouts.ts';
import { demoServer, HOSTS } from './helpers.ts';

/**
 * A prefetched route finds its layout's stylesheet loaded: every page names the other layouts'
 * stylesheets as prefetches (the test build gives each layout its own file).
 */

const app = await demoServer();
t.teardown(() => app.close());

t.test('a page prefetches every other layout stylesheet and loads its own', async (t) => {
  const pages: [string, string][] = [
    [HOSTS.uk, '/'],
    [HOSTS.uk, '/cs/kitchen/aquasense-60-dishwasher-4711'],
    [HOSTS.ch, '/fr/cs/live'],
  ];
  for (const [host, url] of pages) {
    const res = await app.inject({ method: 'GET', url, headers: { host } });
    t.equal(res.statusCode, 200, `${host}${url}`);
    const layout = /<body data-layout="([^"]+)"/.exec(res.body)?.[1] ?? '';
    const own = /<link rel="stylesheet" href="([^"]+)"/.exec(res.body)?.[1];
    const prefetched = [...res.body.matchAll(/<link rel="prefetch" as="style" href="([^"]+)"/g)].map((m) => m[1]);
    t.equal(own, `/assets/${layout}-test.css`, `${url}: its own ${layout} stylesheet`);
    t.same(
      prefetched.sort(),
      LAYOUT_NAMES.filter((l) => l !== layout)
        .map((l) => `/assets/${l}-test.css`)
        .sort(),
      `${url}: the five others, prefetched`,
    );
  }
});
