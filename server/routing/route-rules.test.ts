import t from 'tap';
import type { RouteRule } from '../../common/site.ts';
import { applyRouteRules } from './route-rules.ts';
import { multilingualSite } from './site-fixtures.ts';

const ok = (location: string, status = 301) => ({ redirect: { kind: 'redirect', status, location }, warnings: [] });

t.test('rules that fire', async (t) => {
  // rule, request path, query → expected outcome
  const rows: [string, RouteRule, string, string, ReturnType<typeof ok>][] = [
    [
      'string target, default 301',
      { redirect: '/de/cs/kueche/geschirrspueler-4711' },
      '/de/cs/aktion',
      '',
      ok('/de/cs/kueche/geschirrspueler-4711'),
    ],
    ['query kept on same-site targets', { redirect: '/de/cs/x-1' }, '/de/cs/aktion', '?utm=1', ok('/de/cs/x-1?utm=1')],
    [
      'query appended after the target query, before its hash',
      { redirect: '/de/cs/x-1?a=1#top' },
      '/de/cs/aktion',
      '?utm=1',
      ok('/de/cs/x-1?a=1&utm=1#top'),
    ],
    ['object target with status', { redirect: { to: '/fr', statusCode: 302 } }, '/de/cs/aktion', '', ok('/fr', 302)],
    ['307 and 308 allowed', { redirect: { to: '/fr', statusCode: 308 } }, '/de/cs/aktion', '', ok('/fr', 308)],
    [
      'own absolute URL becomes relative',
      { redirect: 'https://www.halden.ch/it' },
      '/de/cs/aktion',
      '?a=b',
      ok('/it?a=b'),
    ],
    [
      'external target marked external, query dropped',
      { redirect: { to: 'https://shop.example/x', external: true } },
      '/de/cs/aktion',
      '?live_preview=secret',
      ok('https://shop.example/x'),
    ],
    [
      'protocol-relative target marked external leaves by https, query dropped',
      { redirect: { to: '//shop.example/x', external: true } },
      '/de/cs/aktion',
      '?utm=1',
      ok('https://shop.example/x'),
    ],
    [
      'protocol-relative target on the own host is a path',
      { redirect: '//www.halden.ch/it' },
      '/de/cs/aktion',
      '',
      ok('/it'),
    ],
  ];
  for (const [name, rule, path, query, expected] of rows) {
    const site = multilingualSite({ routeRules: { '/de/cs/aktion': rule } });
    t.strictSame(applyRouteRules(site, path, query), expected, name);
  }
});

t.test('rule keys are matched like request paths', async (t) => {
  const site = multilingualSite({
    routeRules: {
      '/de/cs/aktion/': { redirect: '/a' },
      '/de/cs/k%C3%BCche': { redirect: '/b' },
      '/': { redirect: '/c' },
    },
  });
  t.strictSame(applyRouteRules(site, '/de/cs/aktion', ''), ok('/a'), 'key with trailing slash');
  t.strictSame(applyRouteRules(site, '/de/cs/küche', ''), ok('/b'), 'encoded key, decoded request');
  t.strictSame(applyRouteRules(site, '/', ''), ok('/c'), 'a root rule: a root path may redirect');
  t.strictSame(applyRouteRules(site, '/de/cs/aktionen', ''), { redirect: null, warnings: [] }, 'no prefix matching');
  t.strictSame(applyRouteRules(site, '/DE/cs/aktion', ''), { redirect: null, warnings: [] }, 'case-sensitive');
});

t.test('refused rules are ignored with a warning', async (t) => {
  const rows: [string, RouteRule, RegExp][] = [
    ['javascript:', { redirect: 'javascript:alert(1)' }, /refused/],
    ['space before the scheme', { redirect: ' JavaScript:alert(1)' }, /refused/],
    ['tab inside the scheme', { redirect: 'java\tscript:alert(1)' }, /refused/],
    ['newline inside the scheme', { redirect: 'java\nscript:alert(1)' }, /refused/],
    ['data:', { redirect: 'data:text/html,<script>alert(1)</script>' }, /refused/],
    ['vbscript:', { redirect: { to: 'VBScript:msgbox(1)', external: true } }, /refused/],
    ['off-site without external', { redirect: 'https://evil.example/' }, /refused/],
    ['off-site with external false', { redirect: { to: 'https://evil.example/', external: false } }, /refused/],
    ['scheme-less relative target', { redirect: 'evil.example/x' }, /refused/],
    ['protocol-relative without external', { redirect: '//evil.example/x' }, /refused/],
    ['backslash host without external', { redirect: '/\\evil.example/x' }, /refused/],
    ['double backslash without external', { redirect: '\\\\evil.example/x' }, /refused/],
    ['tab between the slashes', { redirect: '/\t/evil.example/x' }, /refused/],
    ['status 200', { redirect: { to: '/fr', statusCode: 200 } }, /status 200/],
    ['status 303', { redirect: { to: '/fr', statusCode: 303 } }, /status 303/],
    ['no target', { redirect: { to: undefined as unknown as string } }, /no redirect target/],
    ['redirect to itself', { redirect: '/de/cs/aktion/?x=1' }, /itself/],
  ];
  for (const [name, rule, warning] of rows) {
    const site = multilingualSite({ routeRules: { '/de/cs/aktion': rule } });
    const outcome = applyRouteRules(site, '/de/cs/aktion', '?a=b');
    t.equal(outcome.redirect, null, `${name}: no redirect`);
    t.equal(outcome.warnings.length, 1, `${name}: one warning`);
    t.match(outcome.warnings[0], warning, `${name}: says why`);
    t.match(outcome.warnings[0], '"/de/cs/aktion"', `${name}: names the rule`);
  }
});
