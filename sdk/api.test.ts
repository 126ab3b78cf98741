import t, { type Test } from 'tap';
import { createLivePreview } from './api.ts';
import { fakeTime, framedSite } from './test-editor.ts';

/** The public API in a framed page, with the real editor library on the other side. */

const PAGE =
  'https://www.halden.co.uk/cs/kitchen/aquasense-60-dishwasher-4711?live_preview=h1&content_type_uid=page&entry_uid=4711';
const globals = globalThis as { window?: unknown };

function api(t: Test, url = PAGE) {
  const framed = framedSite({ url });
  const time = fakeTime(t, framed);
  const manager = framed.editor('live-preview');
  const editor = { send: (type: string, payload?: unknown) => time.settled(manager.send(type, payload)) };
  manager.on('init', () => ({ windowType: 'preview' }));
  globals.window = framed.site;
  const layer = createLivePreview({ sanitizer: () => Promise.reject(new Error('not in this test')) });
  const init = layer.init;
  let started: Awaited<ReturnType<typeof init>> | undefined;
  layer.init = async (config) => {
    started = await init(config);
    return started;
  };
  t.teardown(async () => {
    started?.livePreview?.destroy();
    delete globals.window;
    await framed.close();
  });
  return { ...time, layer, editor };
}

function console(t: Test, level: 'warn' | 'error'): string[] {
  const seen: string[] = [];
  const original = globalThis.console[level];
  globalThis.console[level] = (...args: unknown[]) => seen.push(args.map(String).join(' '));
  t.teardown(() => {
    globalThis.console[level] = original;
  });
  return seen;
}

t.test('version, hash and config are readable before init, from the page URL', async (t) => {
  const { layer } = api(t);
  t.equal(layer.getSdkVersion(), '4.4.1');
  t.equal(layer.hash, 'h1');
  t.match(layer.config, {
    hash: 'h1',
    mode: 1,
    windowType: 'independent',
    stackDetails: { contentTypeUid: 'page', entryUid: '4711' },
  });
});

t.test('subscribers registered before init run on entry changes after it', async (t) => {
  const { layer, editor, advance } = api(t);
  const calls: string[] = [];
  layer.onEntryChange(() => calls.push('entry'));
  layer.onLiveEdit(() => calls.push('live'));
  t.same(calls, ['entry'], 'onEntryChange calls at once, onLiveEdit does not');
  await layer.init({ ssr: false });
  await advance(50);
  t.same(calls, ['entry'], 'init after parsing runs nobody (3.2.5)');
  await editor.send('client-data-send', { hash: 'h2' });
  t.same(calls, ['entry', 'entry', 'live']);
  t.equal(layer.hash, 'h2', 'the hash is the editor latest');
});

t.test('unsubscribing by id or by callback, before and after init; unknown ones warn', async (t) => {
  const warnings = console(t, 'warn');
  const { layer, editor, advance } = api(t);
  const calls: string[] = [];
  const byId = layer.onLiveEdit(() => calls.push('by id'));
  const callback = () => calls.push('by callback');
  layer.onLiveEdit(callback);
  const after = () => calls.push('after');
  layer.onLiveEdit(after);
  layer.unsubscribeOnEntryChange(byId);
  await layer.init({ ssr: false });
  layer.unsubscribeOnEntryChange(callback);
  await advance(50);
  await editor.send('client-data-send', { hash: 'h2' });
  t.same(calls, ['after']);
  layer.unsubscribeOnEntryChange(byId);
  layer.unsubscribeOnEntryChange(callback);
  t.same(warnings, [
    'Live_Preview_SDK: No subscriber found with the given id.',
    'Live_Preview_SDK: No subscriber found with the given callback.',
  ]);
});

t.test('in the builder with a hash, even onLiveEdit renders at once (no first client-data-send)', async (t) => {
  const { layer } = api(t, `${PAGE}&builder=true`);
  let calls = 0;
  layer.onLiveEdit(() => calls++);
  t.equal(calls, 1);
});

t.test('a second init applies its config and warns that the layer already runs', async (t) => {
  const warnings = console(t, 'warn');
  const { layer } = api(t);
  const first = await layer.init({ ssr: false });
  const second = await layer.init({ stackDetails: { apiKey: 'blt-2' } });
  t.equal(second.livePreview, first.livePreview);
  t.equal(layer.config.stackDetails.apiKey, 'blt-2');
  t.match(warnings, [/already initialized the Live Preview SDK/]);
});

t.test('init throws the spec errors for a bad configuration', async (t) => {
  const { layer } = api(t);
  await t.rejects(layer.init({ mode: 'edit' as 'preview' }), { code: 'INVALID_MODE' });
  await t.rejects(layer.init({ editButtton: {} } as never), { message: 'Invalid key: editButtton' });
});

t.test('without a window init warns and resolves an empty object', async (t) => {
  const warnings = console(t, 'warn');
  delete globals.window;
  const layer = createLivePreview({ sanitizer: () => Promise.reject(new Error()) });
  t.same(await layer.init(), {});
  t.equal(layer.hash, '');
  t.match(warnings, [/The SDK is not initialized in the browser\./]);
  let calls = 0;
  layer.onEntryChange(() => calls++);
  t.equal(calls, 1, 'server-side rendering still gets its first render');
});
