import t from 'tap';
import { RouteDecisions } from './decision-memo.ts';
import { decideRoute } from './route.ts';
import { describe, multilingualSite, singleLanguageSite } from './site-fixtures.ts';

const facts = (site = multilingualSite(), rawPath = '/de/cs/kueche/geschirrspueler-4711', query = '') => ({
  site,
  rawPath,
  query,
  fallbackLocale: 'en-GB',
});

t.test('a page URL asked for again gets the decision made the first time, frozen', async (t) => {
  const decisions = new RouteDecisions();
  const site = multilingualSite();
  const first = decisions.decide(facts(site));
  t.equal(describe(first), describe(decideRoute(facts(site))));
  t.equal(decisions.decide(facts(site)), first, 'the same object, not decided again');
  t.ok(Object.isFrozen(first));
  t.equal(decisions.size(site), 1);
});

t.test('the query is part of the URL a decision is kept for', async (t) => {
  const decisions = new RouteDecisions();
  const site = multilingualSite();
  const plain = decisions.decide(facts(site));
  const withQuery = decisions.decide(facts(site, '/de/cs/kueche/geschirrspueler-4711', '?a=b'));
  t.not(withQuery, plain);
  t.equal(decisions.size(site), 2);
});

t.test('each storefront keeps its own decisions', async (t) => {
  const decisions = new RouteDecisions();
  const swiss = multilingualSite();
  const german = singleLanguageSite();
  const path = '/cs/kueche/geschirrspueler-4711';
  t.equal(describe(decisions.decide(facts(german, path))), 'render content de-DE - prefix= id=4711 url=kueche');
  t.match(describe(decisions.decide(facts(swiss, path))), /^302 \/de\/cs/, 'not the other storefront’s render');
});

t.test('a decision from the language cookie or Accept-Language is made for every request', async (t) => {
  const decisions = new RouteDecisions();
  const site = multilingualSite({ strategy: 'prefix_except_default' });
  const french = decisions.decide({ ...facts(site, '/'), cookieLanguage: 'fr' });
  const italian = decisions.decide({ ...facts(site, '/'), acceptLanguage: 'it-IT' });
  t.match(describe(french), /vary=Cookie,Accept-Language/);
  t.not(describe(italian), describe(french), 'the second visitor is not given the first one’s language');
  t.equal(decisions.size(site), 0);
});

t.test('redirects and errors are not kept', async (t) => {
  const decisions = new RouteDecisions();
  const site = multilingualSite();
  t.match(describe(decisions.decide(facts(site, '/de/cs/kueche/x-4711/'))), /^301/);
  t.match(describe(decisions.decide(facts(site, '/de/nope'))), /^404/);
  t.equal(decisions.size(site), 0);
});

t.test('made-up URLs never grow the memo past its bound', async (t) => {
  const decisions = new RouteDecisions(8);
  const site = multilingualSite();
  for (let id = 1; id <= 20; id++) decisions.decide(facts(site, `/de/cs/kueche/x-${id}`));
  t.ok(decisions.size(site) <= 8, `${decisions.size(site)} kept`);
  t.ok(decisions.size(site) > 0);
});
