import t, { type Test } from 'tap';
import { until } from '../../test/until.ts';
import { applyInit, applyUrl } from '../config/config.ts';
import { baseConfig } from '../config/defaults.ts';
import { esmLoaders } from '../esm-loaders.ts';
import { startLayer } from '../live-preview/live-preview.ts';
import { createSubscribers } from '../live-preview/subscribers.ts';
import { fakeTime, framedSite } from '../test-editor.ts';
import * as chunk from './collab.ts';

/**
 * The core loads the collaboration chunk only when the builder init enables it, or on a later
 * `collab-enable` / `highlight-active-comments-by-data-cs`, and hands it the threads of the reply.
 */

const PAGE = 'https://www.halden.co.uk/cs/kitchen/?live_preview=h1&content_type_uid=page&entry_uid=4711';
const THREAD = {
  _id: 'th-1',
  elementXPath: '/html[1]/body[1]/h1[1]',
  position: { x: 0.5, y: 0.5 },
  author: 'bob@halden.co.uk',
  createdBy: 'u-bob',
  pageRoute: '/cs/kitchen',
  inviteUid: 'inv-1',
};

function start(t: Test, collab: Record<string, unknown>, loadCollab: () => Promise<typeof chunk> = async () => chunk) {
  const framed = framedSite({ url: PAGE });
  const time = fakeTime(t, framed);
  const win = framed.site;
  win.document.body.innerHTML = '<h1 data-cslp="page.page-4711.en-GB.title">AquaSense</h1>';
  const lp = framed.editor('live-preview');
  const vb = framed.editor('visual-builder');
  lp.on('init', () => ({ windowType: 'builder' }));
  vb.on('init', () => ({ windowType: 'builder', collab }));
  vb.on('send-variant-and-locale', () => undefined);
  let loads = 0;
  const config = baseConfig();
  applyInit(config, { mode: 'builder', ssr: false, stackDetails: { apiKey: 'k', environment: 'preview' } });
  applyUrl(config, new URL(PAGE));
  const layer = startLayer(win, config, createSubscribers(crypto), {
    sanitizer: () => Promise.reject(new Error('not in this test')),
    collab: () => {
      loads++;
      return loadCollab();
    },
  });
  t.teardown(async () => {
    layer.destroy();
    await framed.close();
  });
  const pins = () =>
    win.document.querySelector('[data-testid="collab__container"]')?.shadowRoot?.querySelectorAll('.collab-pin')
      .length ?? 0;
  const send = (type: string, payload: unknown) => time.settled(vb.send(type, payload));
  return { ...time, win, config, send, loads: () => loads, pins };
}

t.test('enabled in the init reply: loaded at once, with the reply threads as pins', async (t) => {
  const s = start(t, { enable: true, isFeedbackMode: true, payload: [THREAD] });
  await s.advance(100);
  t.equal(s.loads(), 1);
  t.equal(s.config.collab.payload.length, 1);
  t.equal(s.pins(), 1);
});

t.test('the ES module entry loads collaboration as the standalone script does', async (t) => {
  const { collab } = esmLoaders;
  if (!collab) return t.fail('the ES module entry has no collaboration loader');
  const s = start(t, { enable: true, isFeedbackMode: true, payload: [THREAD] }, collab);
  // The entry's dynamic import resolves on the real event loop; the fake clock moves the layer.
  await until(
    async () => {
      await s.advance(10);
      return s.pins() === 1;
    },
    { what: 'the pin of the reply thread' },
  );
  t.equal(s.loads(), 1);
});

t.test('disabled: not loaded until collab-enable, then enabled once', async (t) => {
  const s = start(t, { enable: false });
  await s.advance(100);
  t.equal(s.loads(), 0);
  t.equal(s.win.document.querySelector('[data-testid="collab__container"]'), null);
  await s.send('collab-enable', { collab: { enable: true, isFeedbackMode: true } });
  await s.advance(50);
  t.equal(s.loads(), 1);
  t.equal(s.config.collab.enable, true);
  t.equal(s.config.collab.isFeedbackMode, true);
  await s.send('collab-disable', { collab: {} });
  await s.send('collab-enable', { collab: { enable: true } });
  await s.advance(50);
  t.equal(s.loads(), 1, 'the chunk handles later messages itself');
});
