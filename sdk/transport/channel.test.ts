import t, { type Test } from 'tap';
import { logger } from '../logger.ts';
import { EDITOR_ORIGIN, fakeTime, framedSite } from '../test-editor.ts';
import { createChannel } from './channel.ts';
import { EVENT_MANAGER, messagingError } from './errors.ts';
import { createPeer } from './peer.ts';

/**
 * Our transport against the real advanced-post-message as the editor: both directions, the
 * envelope byte for byte, the error responses, the timeouts, and the origin rules 3.2.5 lacks.
 */

function setup(t: Test, allowed = [EDITOR_ORIGIN], options: { editorOrigin?: string } = {}) {
  const framed = framedSite(options);
  const channel = createChannel('live-preview', framed.site, createPeer(framed.site, allowed));
  t.teardown(async () => {
    channel.destroy();
    await framed.close();
  });
  return { ...framed, channel };
}

t.test('a request of ours reaches the real editor and its answer resolves the promise', async (t) => {
  const s = setup(t);
  const editor = s.editor('live-preview');
  let received: unknown;
  editor.on('init', (event) => {
    received = event.data;
    return { contentTypeUid: 'page', entryUid: 'blt01', windowType: 'preview' };
  });
  const reply = await s.channel.send('init', {
    config: { shouldReload: false, href: 'x', sdkVersion: '4.4.1', mode: 1 },
  });
  t.same(reply, { contentTypeUid: 'page', entryUid: 'blt01', windowType: 'preview' });
  t.same(received, { config: { shouldReload: false, href: 'x', sdkVersion: '4.4.1', mode: 1 } });

  const request = s.toEditor[0]?.message as Record<string, unknown>;
  t.same(
    Object.keys(request),
    ['eventManager', 'metadata', 'channel', 'error', 'payload', 'type'],
    'six keys, in order',
  );
  t.equal(request.eventManager, EVENT_MANAGER);
  t.match((request.metadata as { hash: string }).hash, /^init-[0-9a-f]{8}$/);
  t.equal((request.metadata as { nature: string }).nature, 'REQUEST');
  t.ok('error' in request && request.error === undefined, 'error key present, undefined');
  t.equal(s.toEditor[0]?.targetOrigin, EDITOR_ORIGIN, 'posted to the editor origin, not *');
});

t.test('a request of the real editor is ACKed and answered with the handler result', async (t) => {
  const s = setup(t);
  const editor = s.editor('live-preview');
  s.channel.on('send-current-base-route', async () => ({ url: 'https://www.halden.co.uk/cs' }));
  t.same(await editor.send('send-current-base-route'), { url: 'https://www.halden.co.uk/cs' });
  const natures = s.toEditor.map((p) => (p.message.metadata as { nature: string }).nature);
  t.same(natures, ['ACK', 'RESPONSE'], 'ACK first, then the response');
  const ack = s.toEditor[0]?.message as Record<string, unknown>;
  t.same(Object.keys(ack), ['eventManager', 'metadata', 'channel', 'error', 'payload', 'type']);
  t.equal(ack.payload, undefined);
});

t.test('a request without a handler is answered NO_REQUEST_LISTENER_FOUND in the library words', async (t) => {
  const s = setup(t);
  const editor = s.editor('live-preview');
  await t.rejects(editor.send('foo'), {
    code: 'NO_REQUEST_LISTENER_FOUND',
    message: 'contentstack-adv-post-message: No request listener found for event "foo"',
  });
});

t.test('a throwing handler answers CODE_RETURNED_ERROR instead of leaving the editor waiting', async (t) => {
  const s = setup(t);
  const editor = s.editor('live-preview');
  const errors: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => errors.push(args);
  t.teardown(() => {
    console.error = original;
  });
  s.channel.on('history', () => {
    throw new Error('boom');
  });
  await t.rejects(editor.send('history', { type: 'sideways' }), {
    code: 'CODE_RETURNED_ERROR',
    message: 'contentstack-adv-post-message: The code returned an error',
  });
  t.equal(errors.length, 1, 'the failure is logged');
});

t.test('the editor error response rejects our request with its code', async (t) => {
  const s = setup(t);
  s.editor('live-preview');
  await t.rejects(s.channel.send('check-entry-page', { href: 'x' }), { code: 'NO_REQUEST_LISTENER_FOUND' });
});

t.test('without an ACK a request fails after one second', async (t) => {
  const s = setup(t);
  const time = fakeTime(t, s);
  let failed: unknown;
  s.channel.send('init', {}).catch((error: unknown) => {
    failed = error;
  });
  await time.advance(999);
  t.equal(failed, undefined, 'still waiting just before');
  await time.advance(1);
  t.match(failed, { code: 'NO_ACK_RECEIVED', message: 'contentstack-adv-post-message: The ACK was not received' });
});

t.test('after the ACK a slow answer is still awaited', async (t) => {
  const s = setup(t);
  const time = fakeTime(t, s);
  const editor = s.editor('live-preview');
  editor.on('init', () => new Promise((resolve) => setTimeout(() => resolve({ windowType: 'preview' }), 1300)));
  const reply = s.channel.send('init', {});
  // Well past the 1000 ms the ACK is waited for.
  await time.advance(1300);
  t.same(await time.settled(reply), { windowType: 'preview' });
});

t.test('a closed editor window fails pending requests with WINDOW_CLOSED', async (t) => {
  const s = setup(t);
  const sent = s.channel.send('init', {});
  s.parent.closed = true;
  await t.rejects(sent, { code: 'WINDOW_CLOSED' });
});

t.test('a page that is not framed fails at once with WINDOW_NOT_FOUND and posts nothing', async (t) => {
  const s = setup(t);
  Object.defineProperty(s.site, 'parent', { value: s.site });
  const lonely = createChannel('live-preview', s.site, createPeer(s.site, [EDITOR_ORIGIN]));
  t.teardown(() => lonely.destroy());
  await t.rejects(lonely.send('init', {}), { code: 'WINDOW_NOT_FOUND' });
});

/** A `client-data-send` request as an editor would post it, and how often the page handled one. */
function countingRequests(channel: { on(type: 'client-data-send', handler: () => void): unknown }) {
  let calls = 0;
  channel.on('client-data-send', () => {
    calls++;
  });
  const request = {
    eventManager: EVENT_MANAGER,
    metadata: { hash: 'client-data-send-0badc0de', nature: 'REQUEST' },
    channel: 'live-preview',
    error: undefined,
    payload: { hash: 'evil' },
    type: 'client-data-send',
  };
  return { request, calls: () => calls };
}

/**
 * Posts a request from a foreign origin, from another window and as each of `malformed`: none is
 * handled or answered; then the same request from the editor's window and origin is handled.
 */
async function heardOnlyFromTheEditor(
  t: Test,
  s: ReturnType<typeof setup>,
  heard: string,
  malformed: (request: object) => unknown[] = () => [],
) {
  const { request, calls } = countingRequests(s.channel);
  s.inject(request, { origin: 'https://evil.example' });
  s.inject(request, { origin: EDITOR_ORIGIN, source: { postMessage() {} } });
  for (const message of malformed(request)) s.inject(message, { origin: EDITOR_ORIGIN });
  await s.delivered();
  t.equal(calls(), 0);
  t.equal(s.toEditor.length, 0, 'nothing posted back');
  s.inject(request, { origin: EDITOR_ORIGIN });
  await s.delivered();
  t.equal(calls(), 1, heard);
}

t.test('messages from a foreign origin or another window are ignored: no ACK, no handler', async (t) => {
  await heardOnlyFromTheEditor(t, setup(t), 'the same message from the parent and the editor origin is handled');
});

t.test('a message from a foreign origin or another window is ignored without its data being read', async (t) => {
  const s = setup(t);
  const { request, calls } = countingRequests(s.channel);
  const site = s.site as unknown as Window & typeof globalThis;
  let reads = 0;
  // Reading `data` is what deserialises a large message: counted, so a check after it shows.
  const send = (origin: string, source: unknown) => {
    const event = new site.MessageEvent('message', { origin, source: source as never });
    Object.defineProperty(event, 'data', {
      get: () => {
        reads++;
        return structuredClone(request);
      },
    });
    site.dispatchEvent(event);
  };
  send('https://evil.example', s.parent);
  send(EDITOR_ORIGIN, { postMessage() {} });
  await s.delivered();
  t.equal(reads, 0, 'data never read');
  t.equal(calls(), 0, 'nor handled');
  send(EDITOR_ORIGIN, s.parent);
  await s.delivered();
  t.ok(reads > 0, 'the editor’s own message is read');
  t.equal(calls(), 1, 'and handled');
});

t.test('malformed envelopes are dropped before any handler', async (t) => {
  const s = setup(t);
  const { request: good, calls } = countingRequests(s.channel);
  for (const bad of [
    null,
    'text',
    { ...good, eventManager: 'other' },
    { ...good, channel: 'visual-builder' },
    { ...good, type: '' },
    { ...good, type: 7 },
    { ...good, metadata: null },
    { ...good, metadata: { nature: 'REQUEST' } },
    { ...good, metadata: { hash: 'x'.repeat(201), nature: 'REQUEST' } },
    { ...good, error: 'oops' },
  ])
    s.inject(bad, { origin: EDITOR_ORIGIN });
  s.inject({ ...good, metadata: { hash: 'h-1', nature: 'SHOUT' } }, { origin: EDITOR_ORIGIN });
  await s.delivered();
  t.equal(calls(), 0);
  t.equal(s.toEditor.length, 0);
  s.inject(good, { origin: EDITOR_ORIGIN });
  await s.delivered();
  t.equal(calls(), 1, 'the well-formed envelope is handled');
});

t.test('before the editor origin is known a message goes to each allowlisted origin, never to *', async (t) => {
  const other = 'https://eu-app.contentstack.com';
  const s = setup(t, [other, EDITOR_ORIGIN]);
  const editor = s.editor('live-preview');
  editor.on('init', () => ({ windowType: 'preview' }));
  await s.channel.send('init', {});
  t.same(
    s.toEditor.map((p) => p.targetOrigin),
    [other, EDITOR_ORIGIN],
    'one copy per allowlisted origin; only the matching one is delivered',
  );
  s.toEditor.length = 0;
  await s.channel.send('init', {});
  t.same(
    s.toEditor.map((p) => p.targetOrigin),
    [EDITOR_ORIGIN],
    'once the editor has spoken, its origin only',
  );
});

t.test('a frame whose parent origin is known and not allowlisted posts nothing', async (t) => {
  const s = setup(t);
  Object.defineProperty(s.site.location, 'ancestorOrigins', { value: ['https://evil.example'] });
  const guarded = createChannel('live-preview', s.site, createPeer(s.site, [EDITOR_ORIGIN]));
  t.teardown(() => guarded.destroy());
  await t.rejects(guarded.send('init', {}), { code: 'WINDOW_NOT_FOUND' });
  t.equal(s.toEditor.length, 0);
});

t.test('destroy cancels pending requests and an empty channel id is refused', async (t) => {
  const s = setup(t);
  const sent = s.channel.send('init', {});
  s.channel.destroy();
  await t.rejects(sent, { code: 'EVENT_CANCELLED' });
  t.throws(() => createChannel('', s.site, createPeer(s.site, [])), {
    message: 'contentstack-adv-post-message: The channelId is required',
  });
});

t.test('a handler is unregistered by the function on() returns; a second time logs EVENT_DOES_NOT_EXIST', async (t) => {
  const s = setup(t);
  const off = s.channel.on('history', () => 'handled');
  const editor = s.editor('live-preview');
  t.equal(await editor.send('history', {}), 'handled');
  off();
  await t.rejects(editor.send('history', {}), { code: 'NO_REQUEST_LISTENER_FOUND' }, 'gone after off()');
  const logged: unknown[][] = [];
  const original = console.debug;
  console.debug = (...args: unknown[]) => logged.push(args);
  logger.setDebug(true);
  t.teardown(() => {
    console.debug = original;
    logger.setDebug(false);
  });
  off();
  t.match(logged, [[/Live_Preview_SDK/, `${EVENT_MANAGER}: The event "history" does not exist`]]);
  t.equal(messagingError('EVENT_DOES_NOT_EXIST', { type: 'x' }).code, 'EVENT_DOES_NOT_EXIST');
});

/** A page opened in a new tab by the editor (4.x): not framed, the editor is its `opener`. */
function openedInTab(t: Test) {
  const s = setup(t);
  // The framed channel of `setup` would answer too.
  s.channel.destroy();
  Object.defineProperty(s.site, 'parent', { value: s.site });
  Object.defineProperty(s.site, 'opener', { value: s.parent, configurable: true });
  const channel = createChannel('live-preview', s.site, createPeer(s.site, [EDITOR_ORIGIN], { opener: true }));
  t.teardown(() => channel.destroy());
  return { ...s, channel };
}

t.test('in a new tab the opener is the editor: requests and answers go both ways', async (t) => {
  const s = openedInTab(t);
  const editor = s.editor('live-preview');
  editor.on('init', () => ({ windowType: 'preview' }));
  t.same(await s.channel.send('init', {}), { windowType: 'preview' });
  s.channel.on('history', () => 'handled');
  t.equal(await editor.send('history', {}), 'handled');
  t.same(
    s.toEditor.map((p) => p.targetOrigin),
    [EDITOR_ORIGIN, EDITOR_ORIGIN, EDITOR_ORIGIN],
    'to the allowlisted origin only (request, then ACK and answer)',
  );
});

t.test('in a new tab a foreign opener, another window and a malformed message are ignored without error', async (t) => {
  await heardOnlyFromTheEditor(t, openedInTab(t), 'the opener on the editor origin is heard', (request) => [
    { ...request, metadata: null },
    '{"not":"an envelope"}',
  ]);
});

t.test('an opener is the editor only for a channel that asks, and never for a framed page', async (t) => {
  const s = openedInTab(t);
  const builder = createChannel('visual-builder', s.site, createPeer(s.site, [EDITOR_ORIGIN]));
  t.teardown(() => builder.destroy());
  await t.rejects(builder.send('init', {}), { code: 'WINDOW_NOT_FOUND' }, 'the builder channel stays on the parent');
  const framed = setup(t);
  const stranger = { postMessage: () => t.fail('posted to the opener of a framed page'), closed: false };
  Object.defineProperty(framed.site, 'opener', { value: stranger });
  const channel = createChannel(
    'live-preview',
    framed.site,
    createPeer(framed.site, [EDITOR_ORIGIN], { opener: true }),
  );
  t.teardown(() => channel.destroy());
  framed.editor('live-preview').on('init', () => ({ windowType: 'builder' }));
  t.same(await channel.send('init', {}), { windowType: 'builder' }, 'framed: the parent answers');
});

t.test('a new tab whose opener is not an editor origin posts nothing it could read', async (t) => {
  const s = setup(t, [EDITOR_ORIGIN], { editorOrigin: 'https://evil.example' });
  s.channel.destroy();
  Object.defineProperty(s.site, 'parent', { value: s.site });
  Object.defineProperty(s.site, 'opener', { value: s.parent });
  const channel = createChannel('live-preview', s.site, createPeer(s.site, [EDITOR_ORIGIN], { opener: true }));
  t.teardown(() => channel.destroy());
  const foreign = s.editor('live-preview');
  let asked = 0;
  foreign.on('init', () => {
    asked++;
    return { windowType: 'preview' };
  });
  const time = fakeTime(t, s);
  const sent = channel.send('init', {});
  sent.catch(() => undefined);
  await time.advance(1000);
  await t.rejects(sent, { code: 'NO_ACK_RECEIVED' });
  t.equal(asked, 0, 'the message was addressed to the editor origin: the browser never delivered it');
  t.same(
    s.toEditor.map((p) => p.targetOrigin),
    [EDITOR_ORIGIN],
  );
});
