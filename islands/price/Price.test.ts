import { Window } from 'happy-dom';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import t from 'tap';
import WebSocket from 'ws';
import { Price } from '../../client/components/price.tsx';
import { createMessageCatalog } from '../../client/i18n/messages.ts';
import { Render } from '../../client/render/context.ts';
import { startDataServer } from '../../server/data/test-server.ts';
import { createRenderContext } from '../../server/render/context.ts';
import { browserImport, hydratedBy, RUNTIME } from '../../test/browser-modules.ts';
import { testAssets } from '../../test/helpers.ts';
import { until } from '../../test/until.ts';
import type { hydrateIsland as HydrateIsland } from '../hydrate-island.ts';
import LivePrice, { type LivePriceProps } from './Price.tsx';

/** The island and the hydrating library as the browser build has them (React, or preact/compat). */
const browser = {
  LivePrice: (await browserImport<{ default: typeof LivePrice }>(new URL('./Price.tsx', import.meta.url))).default,
  hydrateIsland: (
    await browserImport<{ hydrateIsland: typeof HydrateIsland }>(new URL('../hydrate-island.ts', import.meta.url))
  ).hydrateIsland,
};

/**
 * The live price: where the server renders it as an island and where not, and in happy-dom
 * against the embedded backend, that it follows changes and says when the channel is lost and back.
 */

const messages = createMessageCatalog({ dir: 'locales', fallbackLocale: 'en-GB', log: console as never });
const t_enGB = await messages.translator('en-GB');

function renderPrice(props: Parameters<typeof Price>[0], preview = false): string {
  const context = createRenderContext({ locale: 'en-GB', t: t_enGB, preview, assets: testAssets, dev: false });
  return renderToString(createElement(Render.Provider, { value: context }, createElement(Price, props)));
}

t.test('a product price is a live island with the same server-rendered text and translated messages', async (t) => {
  const html = renderPrice({ price: { amount: 949, currency: 'GBP' }, productId: '4712' });
  t.match(
    html,
    /<vitrine-island data-name="price" data-url="\/assets\/price-test\.js" data-strategy="visible" data-margin="0px"/,
  );
  t.match(html, /<data value="949">£949<\/data>/, 'the price text is there before any script runs');
  t.match(html, /<span class="price-live" role="status" data-connection="live"><\/span>/, 'an empty live region');
  t.match(
    html,
    /<span class="availability"><span>In stock<\/span><span>Only a few left<\/span><span>Out of stock<\/span><\/span>/,
    'every availability label, none shown, so the space is there before the backend answers',
  );
  const props = JSON.parse((/data-props="([^"]+)"/.exec(html)?.[1] ?? '').replaceAll('&quot;', '"')) as LivePriceProps;
  t.match(props, {
    productId: '4712',
    locale: 'en-GB',
    amount: 949,
    formatted: '£949',
    labels: {
      lost: 'Live prices paused – reconnecting…',
      restored: 'Live prices are up to date again.',
      availability: { in_stock: 'In stock', low_stock: 'Only a few left', out_of_stock: 'Out of stock' },
    },
  });
});

t.test('teaser prices and preview prices stay static', async (t) => {
  const teaser = renderPrice({ price: { amount: 779, currency: 'GBP' } });
  t.notMatch(teaser, /vitrine-island/);
  t.match(teaser, /<data value="779">£779<\/data>/);
  const preview = renderPrice(
    { price: { amount: 949, currency: 'GBP' }, productId: '4712', cslp: { 'data-cslp': 'x.price.amount' } },
    true,
  );
  t.notMatch(preview, /vitrine-island/, "an editor's price is not replaced by the backend's");
  t.match(preview, /<data value="949" data-cslp="x.price.amount">£949<\/data>/);
});

t.test('hydrated, it shows the current price, follows changes, and reports a lost and restored channel', async (t) => {
  const server = await startDataServer(t);
  const window = new Window({ url: 'http://127.0.0.1/' });
  const globals = globalThis as Record<string, unknown>;
  for (const name of ['window', 'document', 'HTMLElement', 'Node', 'navigator']) {
    // Defined, not assigned: Node's own `navigator` is a getter-only global.
    Object.defineProperty(globalThis, name, {
      value: name === 'window' ? window : (window as unknown as Record<string, unknown>)[name],
      configurable: true,
      writable: true,
    });
  }
  globals.WebSocket = WebSocket;

  const props: LivePriceProps = {
    productId: '4712',
    locale: 'en-GB',
    amount: 949,
    formatted: '£949',
    endpoint: server.url,
    labels: { lost: 'LOST', restored: 'BACK', availability: { in_stock: 'IN', low_stock: 'LOW', out_of_stock: 'OUT' } },
  };
  // Changed after the page was rendered: hydration must catch up with the backend.
  server.catalog.update({ id: '4712', locale: 'en-GB', amount: 899 });
  const container = window.document.createElement('p');
  container.innerHTML = renderToString(createElement(LivePrice, props));
  window.document.body.appendChild(container);
  const text = (selector: string) => container.querySelector(selector)?.textContent ?? '';
  const root = browser.hydrateIsland(container as unknown as HTMLElement, browser.LivePrice as never, props);
  t.equal(hydratedBy(container), RUNTIME, `hydrated by ${RUNTIME}`);
  // Unmounting ends the subscription; the DOM globals stay, as the library may still run scheduled work.
  t.teardown(() => root.unmount());

  await until(() => text('data') === '£899', { what: 'the current price' });
  t.equal(text('.availability [data-current]'), 'IN');
  await until(() => server.catalog.watchers() === 1, { what: 'the subscription' });
  server.catalog.update({ id: '4712', locale: 'en-GB', amount: 855, availability: 'low_stock' });
  await until(() => text('data') === '£855', { what: 'the pushed price' });
  t.equal(container.querySelector('data')?.getAttribute('value'), '855');
  t.equal(text('.availability [data-current]'), 'LOW');
  t.equal(container.querySelectorAll('.availability [data-current]').length, 1, 'one label shown');

  const original = console.warn;
  console.warn = () => {};
  t.teardown(() => {
    console.warn = original;
  });
  server.dropSockets();
  await until(() => text('[role="status"]') === 'LOST', { what: 'the lost message' });
  t.pass('the lost channel is shown');
  server.catalog.update({ id: '4712', locale: 'en-GB', amount: 850 });
  // The spec's back-off: 1000 ms plus 300 to 3000 ms of jitter.
  await until(() => text('[role="status"]') === 'BACK', { what: 'the restored message', timeout: 6000 });
  await until(() => text('data') === '£850', { what: 'the change made while the channel was lost' });
  t.pass('restored, and refetched what was missed');
});
