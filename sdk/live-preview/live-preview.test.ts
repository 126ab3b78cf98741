import { Window } from 'happy-dom';
import t, { type Test } from 'tap';
import { applyInit, applyUrl } from '../config/config.ts';
import { baseConfig } from '../config/defaults.ts';
import type { InitData } from '../config/types.ts';
import type { PageWindow } from '../dom.ts';
import { type EventManager, fakeTime, framedSite } from '../test-editor.ts';
import { startLayer } from './live-preview.ts';
import { createSubscribers } from './subscribers.ts';

/**
 * The running layer against the real editor library: the init handshakes in
 * preview and builder mode, with and without SSR, and what the editor can ask afterwards.
 */

const PAGE =
  'https://www.halden.co.uk/cs/kitchen/aquasense-60-dishwasher-4711?live_preview=h1&content_type_uid=page&entry_uid=4711';

function start(t: Test, init: InitData, options: { reply?: boolean; body?: string; tab?: boolean } = {}) {
  const framed = framedSite({ url: PAGE });
  // Live Preview in a new tab (4.x): not framed, opened by the editor.
  if (options.tab) {
    Object.defineProperty(framed.site, 'opener', { value: framed.parent });
    Object.defineProperty(framed.site, 'parent', { value: framed.site });
  }
  const time = fakeTime(t, framed);
  const win = framed.site;
  win.document.body.innerHTML = options.body ?? '<h1 data-cslp="page.page-4711.en-GB.title">AquaSense</h1>';
  const editors: Record<string, EventManager> = {
    livePreview: framed.editor('live-preview'),
    visualBuilder: framed.editor('visual-builder'),
  };
  const received: { channel: string; type: string; data: unknown }[] = [];
  if (options.reply !== false) {
    editors.livePreview?.on('init', (event) => {
      received.push({ channel: 'live-preview', type: 'init', data: event.data });
      return { contentTypeUid: 'page', entryUid: 'page-4711', windowType: 'preview' };
    });
    editors.livePreview?.on('check-entry-page', (event) => {
      received.push({ channel: 'live-preview', type: 'check-entry-page', data: event.data });
    });
  }
  const config = baseConfig();
  applyInit(config, init);
  applyUrl(config, new URL(PAGE));
  const subscribers = createSubscribers(crypto);
  let changes = 0;
  subscribers.add(() => changes++);
  const layer = startLayer(win, config, subscribers, {
    sanitizer: () => Promise.reject(new Error('not in this test')),
  });
  t.teardown(async () => {
    layer.destroy();
    await framed.close();
  });
  /** A request from the editor on one of its channels, settled on the test's clock. */
  const send = (channel: string, type: string, payload?: unknown) =>
    time.settled((editors[channel] ?? framed.editor(channel)).send(type, payload));
  return { ...time, framed, win, config, editors, send, received, changes: () => changes };
}

t.test('client-side preview: init says shouldReload false, mode 1; entry changes reach the subscribers', async (t) => {
  const s = start(t, { ssr: false, stackDetails: { apiKey: 'k', environment: 'preview' } });
  await s.advance(50);
  t.same(s.received[0], {
    channel: 'live-preview',
    type: 'init',
    data: { config: { shouldReload: false, href: PAGE, sdkVersion: '4.4.1', mode: 1 } },
  });
  t.equal(s.config.windowType, 'preview', 'the window type comes from the reply');
  t.match(s.config.stackDetails, { contentTypeUid: 'page', entryUid: 'page-4711' });
  const before = s.changes();
  t.equal(await s.send('livePreview', 'client-data-send', { hash: 'h2' }), undefined);
  t.equal(s.config.hash, 'h2');
  t.equal(s.config.stackSdk.live_preview.hash, 'h2');
  t.equal(s.changes(), before + 1, 'every subscriber runs once per change');
});

t.test('client-side preview asks check-entry-page every 1500 ms', async (t) => {
  const s = start(t, { ssr: false });
  const checks = () => s.received.filter((r) => r.type === 'check-entry-page');
  // The handshake, then the clock.
  await s.advance(0);
  await s.advance(1499);
  t.equal(checks().length, 0, 'not before 1500 ms');
  await s.advance(1);
  t.same(checks(), [{ channel: 'live-preview', type: 'check-entry-page', data: { href: PAGE } }], 'then one');
  await s.advance(1500);
  t.equal(checks().length, 2, 'and every 1500 ms');
});

t.test('SSR preview: shouldReload true; a change only stores the hash, the editor reloads the frame', async (t) => {
  const s = start(t, { ssr: true });
  await s.advance(50);
  t.match(s.received[0], { data: { config: { shouldReload: true, mode: 1 } } });
  const before = s.changes();
  await s.send('livePreview', 'client-data-send', { hash: 'h3' });
  t.equal(s.config.hash, 'h3');
  t.equal(s.changes(), before);
});

t.test('history forward, backward and reload; anything else is answered with an error', async (t) => {
  const s = start(t, { ssr: false });
  await s.advance(50);
  const calls: string[] = [];
  s.win.history.forward = () => calls.push('forward');
  s.win.history.back = () => calls.push('back');
  s.win.history.go = () => calls.push('go');
  for (const type of ['forward', 'backward', 'reload']) await s.send('livePreview', 'history', { type });
  t.same(calls, ['forward', 'back', 'go']);
  const original = console.error;
  console.error = () => {};
  t.teardown(() => {
    console.error = original;
  });
  await t.rejects(s.send('livePreview', 'history', { type: 'sideways' }), {
    code: 'CODE_RETURNED_ERROR',
  });
});

t.test('a failed init is swallowed: no handlers, the window stays independent', async (t) => {
  const s = start(t, { ssr: false }, { reply: false });
  s.editors.livePreview?.destroy({ soft: true });
  // Past the 1000 ms the layer waits for an acknowledgement.
  await s.advance(1100);
  t.equal(s.config.windowType, 'independent');
  const late = s.framed.editor('live-preview');
  await t.rejects(s.settled(late.send('client-data-send', { hash: 'x' })), { code: 'NO_REQUEST_LISTENER_FOUND' });
});

t.test('builder mode: the visual-builder init decides the window; then send-variant-and-locale', async (t) => {
  const framedInit: unknown[] = [];
  const s = start(
    t,
    { mode: 'builder', ssr: false, stackDetails: { apiKey: 'k', environment: 'preview' } },
    { reply: false },
  );
  s.editors.livePreview?.on(
    'init',
    () => new Promise((resolve) => setTimeout(() => resolve({ windowType: 'preview' }), 100)),
  );
  s.editors.visualBuilder?.on('init', (event) => {
    framedInit.push(event.data);
    return { windowType: 'builder', stackDetails: { masterLocale: 'de-ch' }, collab: { enable: true } };
  });
  let variantAndLocale = 0;
  s.editors.visualBuilder?.on('send-variant-and-locale', () => {
    variantAndLocale++;
  });
  await s.advance(200);
  t.same(framedInit, [{ isSSR: false, href: PAGE }]);
  t.equal(s.config.windowType, 'builder', 'a later live-preview reply does not override the builder');
  t.equal(s.config.stackDetails.masterLocale, 'de-ch');
  t.equal(s.config.collab.enable, true);
  t.equal(variantAndLocale, 1);
  t.equal(s.win.document.getElementById('cslp-tooltip'), null, 'no edit button in the builder window');
  const before = s.changes();
  await s.send('livePreview', 'client-data-send', { hash: 'h4' });
  t.equal(s.changes(), before + 1);
});

t.test('enable false: nothing is sent, tags are cleaned, the timeline still answers', async (t) => {
  const s = start(
    t,
    { enable: false },
    {
      body: '<h1 data-cslp="page.p.en-GB.title" data-cslp-button-position="left">A</h1><p data-cslp="page.p.en-GB.x">B</p>',
    },
  );
  await s.advance(50);
  t.same(s.received, []);
  t.equal(s.win.document.querySelectorAll('[data-cslp], [data-cslp-button-position]').length, 0);
  t.match(await s.send('timeline', 'send-current-base-route'), { url: /aquasense-60-dishwasher-4711$/ });
});

t.test('enable false without cleanCslpOnProduction keeps the tags', async (t) => {
  const s = start(t, { enable: false, cleanCslpOnProduction: false });
  t.equal(s.win.document.querySelectorAll('[data-cslp]').length, 1);
});

t.test('leaving the page through a focused link sends url-change with its target', async (t) => {
  const s = start(t, { ssr: false }, { body: '<a id="next" href="/cs/oven-4712">Oven</a>' });
  await s.advance(50);
  const changes: unknown[] = [];
  s.editors.livePreview?.on('url-change', (event) => {
    changes.push(event.data);
  });
  (s.win.document.getElementById('next') as HTMLElement).focus();
  s.win.dispatchEvent(new s.win.Event('pagehide'));
  await s.advance(20);
  t.same(changes, [{ targetURL: 'https://www.halden.co.uk/cs/oven-4712' }]);
});

t.test('in preview the edit button exists; the timeline view has none', async (t) => {
  const s = start(t, { ssr: false });
  t.ok(s.win.document.getElementById('cslp-tooltip'));
  const framed = framedSite({ url: `${PAGE}&preview_timestamp=2024-05-01` });
  t.teardown(() => framed.close());
  const config = baseConfig();
  const layer = startLayer(framed.site, config, createSubscribers(crypto), {
    sanitizer: () => Promise.reject(new Error()),
  });
  t.teardown(() => layer.destroy());
  t.equal(framed.site.document.getElementById('cslp-tooltip'), null);
});

/** A chunk loader the test resolves when it wants: the load is in flight until then. */
function deferredChunk<T>(chunk: () => Promise<T>) {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const loaded = gate.then(chunk);
  return { load: () => loaded, release: () => release(), loaded };
}

/** Lets every task and promise job queued so far run. */
const turns = async (count = 5) => {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
};

t.test('destroy during the builder handshake outside the editor: Start Editing never appears', async (t) => {
  const win = new Window({ url: `${PAGE}&builder=true` }) as unknown as PageWindow;
  t.teardown(() => (win as unknown as Window).happyDOM.close());
  const config = baseConfig();
  applyInit(config, { mode: 'builder', stackDetails: { apiKey: 'k', environment: 'preview' } });
  const builder = deferredChunk(() => import('../builder/builder.ts'));
  const layer = startLayer(win, config, createSubscribers(crypto), {
    sanitizer: () => Promise.reject(new Error('not in this test')),
    builder: builder.load,
  });
  // The init found no editor; the builder chunk that draws the button is still loading.
  layer.destroy();
  builder.release();
  await builder.loaded;
  await turns();
  t.equal(win.document.querySelector('[data-testid="vcms-start-editing-btn"]'), null);
});

t.test('destroy while the builder chunk loads in the editor: no builder UI is mounted', async (t) => {
  const framed = framedSite({ url: `${PAGE}&builder=true` });
  const time = fakeTime(t, framed);
  t.teardown(() => framed.close());
  framed.editor('visual-builder').on('init', () => ({ windowType: 'builder' }));
  framed.editor('visual-builder').on('send-variant-and-locale', () => undefined);
  const config = baseConfig();
  applyInit(config, { mode: 'builder', stackDetails: { apiKey: 'k', environment: 'preview' } });
  const builder = deferredChunk(() => import('../builder/builder.ts'));
  let asked = false;
  const layer = startLayer(framed.site, config, createSubscribers(crypto), {
    sanitizer: () => Promise.reject(new Error('not in this test')),
    builder: () => {
      asked = true;
      return builder.load();
    },
  });
  for (let turns = 0; !asked && turns < 100; turns++) await time.advance(5);
  t.ok(asked, 'the handshake got as far as loading the builder');
  layer.destroy();
  builder.release();
  await builder.loaded;
  await time.advance(5);
  t.equal(framed.site.document.querySelector('.visual-builder__container'), null);
});

t.test(
  'a preview-share link mounts the builder UI as 4.4.1 does; a page with neither parameter does not',
  async (t) => {
    const mounted = async (query: string) => {
      const framed = framedSite({ url: `${PAGE}${query}` });
      const time = fakeTime(t, framed);
      t.teardown(() => framed.close());
      let replied = false;
      framed.editor('visual-builder').on('init', () => {
        replied = true;
        return { windowType: 'preview-share' };
      });
      const config = baseConfig();
      applyInit(config, { mode: 'builder', stackDetails: { apiKey: 'k', environment: 'preview' } });
      let loaded: Promise<unknown> = Promise.resolve();
      const layer = startLayer(framed.site, config, createSubscribers(crypto), {
        sanitizer: () => Promise.reject(new Error('not in this test')),
        builder: () => {
          const chunk = import('../builder/builder.ts');
          loaded = chunk;
          return chunk;
        },
      });
      t.teardown(() => layer.destroy());
      for (let turns = 0; !replied && turns < 100; turns++) await time.advance(5);
      t.ok(replied, 'the editor answered the builder init');
      await loaded;
      await time.advance(5);
      return framed.site.document.querySelector('.visual-builder__container') !== null;
    };
    t.equal(await mounted('&preview_share=blt-share'), true, '?preview_share alone mounts the UI');
    t.equal(await mounted(''), false, 'without builder or preview_share no UI is mounted');
  },
);

t.test(
  'in a new tab the opener is the editor: init carries the 4.x flag, hash_change updates the address',
  async (t) => {
    const s = start(t, { ssr: false, enableLivePreviewOutsideIframe: true }, { tab: true });
    await s.advance(50);
    t.same(s.received[0]?.data, {
      config: { shouldReload: false, href: PAGE, sdkVersion: '4.4.1', mode: 1, enableLivePreviewOutsideIframe: true },
    });
    t.equal(s.config.windowType, 'preview', 'the handshake went through the opener');
    const before = s.changes();
    await s.send('livePreview', 'client-data-send', { hash: 'h2', _metadata: { event_type: 'hash_change' } });
    t.equal(new URL(s.win.location.href).searchParams.get('live_preview'), 'h2', 'the address carries the new hash');
    t.equal(s.win.history.length, 2, 'pushed, not reloaded');
    t.equal(s.changes(), before, 'an editor event is followed, not refreshed');
    await s.send('livePreview', 'client-data-send', {
      hash: 'h3',
      url: 'https://evil.example/x',
      _metadata: { event_type: 'url_change' },
    });
    await s.send('livePreview', 'client-data-send', {
      hash: 'h3',
      url: 'javascript:alert(1)',
      _metadata: { event_type: 'url_change' },
    });
    await s.send('livePreview', 'client-data-send', {
      hash: 'h3',
      url: 'http://[bad',
      _metadata: { event_type: 'url_change' },
    });
    t.equal(new URL(s.win.location.href).searchParams.get('live_preview'), 'h2', 'never to another site, or to script');
    t.equal(s.config.hash, 'h3');
    await s.send('livePreview', 'client-data-send', { hash: 'h4', _metadata: { event_type: 'other' } });
    t.equal(s.changes(), before + 1, 'an unknown event type is a plain change');
  },
);

t.test('framed, the flag is not sent unless configured and an event type changes nothing but the hash', async (t) => {
  const s = start(t, { ssr: false });
  await s.advance(50);
  t.same(s.received[0]?.data, { config: { shouldReload: false, href: PAGE, sdkVersion: '4.4.1', mode: 1 } });
  await s.send('livePreview', 'client-data-send', { hash: 'h2', _metadata: { event_type: 'hash_change' } });
  t.equal(
    new URL(s.win.location.href).searchParams.get('live_preview'),
    'h1',
    'a framed page leaves its address alone',
  );
  t.equal(s.config.hash, 'h2');
});
