import t from 'tap';
import { type ContentChange, ContentChanges } from './changes.ts';

/** The change hub: every subscriber hears every change, in order, and one that throws is logged. */

function recordingLogger() {
  const lines: { details: Record<string, unknown>; message: string }[] = [];
  return { lines, warn: (details: object, message: string) => lines.push({ details: { ...details }, message }) };
}

t.test('subscribers hear each change in the order they subscribed; unsubscribing stops it', async (t) => {
  const hub = new ContentChanges(recordingLogger());
  const heard: string[] = [];
  hub.subscribe((change) => heard.push(`cache ${change.origin}`));
  const stop = hub.subscribe((change) => heard.push(`sitemap ${change.origin}`));
  hub.announce({ origin: 'revalidate' });
  stop();
  hub.announce({ origin: 'webhook', entries: [{ type: 'page', uid: '4711' }] });
  t.same(heard, ['cache revalidate', 'sitemap revalidate', 'cache webhook']);
});

t.test('a subscriber that throws is logged with the change, and the later ones are still told', async (t) => {
  const logger = recordingLogger();
  const hub = new ContentChanges(logger);
  const told: ContentChange[] = [];
  const failure = new Error('the sitemap cache broke');
  hub.subscribe(() => {
    throw failure;
  });
  hub.subscribe((change) => told.push(change));
  hub.announce({ origin: 'publish' });
  t.same(told, [{ origin: 'publish' }], 'the next subscriber still heard it');
  t.same(logger.lines, [
    {
      details: { err: failure, origin: 'publish' },
      message: 'A content change subscriber failed; the others were still told',
    },
  ]);
});

t.test('without a logger a failing subscriber is written to stderr, not swallowed', async (t) => {
  const written: unknown[][] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => written.push(args);
  t.teardown(() => {
    console.error = original;
  });
  const hub = new ContentChanges();
  hub.subscribe(() => {
    throw new Error('boom');
  });
  hub.announce({ origin: 'watch' });
  t.match(written, [['A content change subscriber failed; the others were still told', { origin: 'watch' }]]);
});
