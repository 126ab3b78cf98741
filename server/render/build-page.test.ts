import type { Test } from 'tap';
import t from 'tap';
import { createMessageCatalog } from '../../client/i18n/messages.ts';
import { testAssets } from '../../test/helpers.ts';
import { loadSitesConfig } from '../config/sites.ts';
import { createEmbeddedStore } from '../content/store.ts';
import { decideRoute } from '../routing/route.ts';
import { createHostResolver } from '../sites/resolve.ts';
import { buildPage } from './build-page.ts';

const { config: sites } = loadSitesConfig('config/sites.json');
const log = { warn() {}, error() {} };

function setUp(t: Test) {
  const content = createEmbeddedStore({ dir: 'content' });
  t.teardown(() => content.close());
  const messages = createMessageCatalog({ dir: 'locales', fallbackLocale: sites.fallbackLocale, log });
  return { sites, content, messages, assets: testAssets, dev: false };
}

function request(path: string, extra: { entryUid?: string; cookie?: string } = {}) {
  const found = createHostResolver(sites).resolve('www.halden.co.uk');
  if ('error' in found) throw new Error('the UK storefront is missing');
  const decision = decideRoute({ rawPath: path, query: '', site: found.site, fallbackLocale: sites.fallbackLocale });
  if (decision.kind !== 'render') throw new Error(`${path} does not render`);
  return { site: found.site, decision, rawPath: path, query: '', log, ...extra };
}

t.test('a page builds from plain inputs: storefront, decision, path and a logger', async (t) => {
  const outcome = await buildPage(setUp(t), request('/cs/kitchen/aquasense-60-dishwasher-4711'));
  t.equal(outcome.kind, 'page');
  if (outcome.kind !== 'page') return;
  t.equal(outcome.model.locale, 'en-GB');
  t.equal(outcome.page.uuid, '4711');
  t.equal(outcome.personal, false);
});

t.test("the live route renders the editor's entry, and an entry no page has is a 404", async (t) => {
  const deps = setUp(t);
  const live = await buildPage(deps, request('/cs/live', { entryUid: '4711' }));
  t.equal(live.kind === 'page' && live.page.uuid, '4711');
  const unknown = await buildPage(deps, request('/cs/live', { entryUid: 'no-such-entry' }));
  t.same(unknown, { kind: 'error', status: 404, message: 'Page no-such-entry not found' });
});
