import t, { type Test } from 'tap';
import type { EditorChannel } from './protocol.ts';
import { installDom } from './test-dom.ts';
import { compareWith, leafTags, PUBLISHED_HASH, removeCompare } from './timeline.ts';

/** The compare view's editor side: which fields differ from the base, sent as word diffs. */

const PUBLISHED = `<main><h1 data-cslp="page.p.en-GB.title">Quiet dishwasher</h1>
<section data-cslp="page.p.en-GB.body"><p data-cslp="page.p.en-GB.body.0.text">Same text</p></section>
<div data-cslp="page.p.en-GB.rich"><b>bold</b></div></main>`;

/** The globals the module reads in a browser: DOMParser and fetch, for this test. */
function browserGlobals(t: Test, page: { status: number; body: string }) {
  const win = installDom(t);
  const globals = globalThis as unknown as Record<string, unknown>;
  const saved = { DOMParser: globals.DOMParser, fetch: globals.fetch };
  const fetched: string[] = [];
  globals.DOMParser = win.DOMParser;
  globals.fetch = async (url: string) => {
    fetched.push(url);
    return new Response(page.body, { status: page.status });
  };
  t.teardown(() => Object.assign(globals, saved));
  return { win, fetched };
}

function channel(draft: Record<string, string>) {
  const sent: { type: string; payload?: unknown }[] = [];
  const timeline = {
    on: () => undefined,
    send: async (type: string, payload?: unknown) => {
      sent.push({ type, payload });
      return (type === 'send-cslp-data' ? draft : undefined) as never;
    },
  } as EditorChannel;
  return { timeline, sent };
}

t.test('leaf tags: tagged elements without a tagged descendant, with their inner HTML', async (t) => {
  const { win } = browserGlobals(t, { status: 200, body: '' });
  const doc = new win.DOMParser().parseFromString(PUBLISHED, 'text/html') as unknown as Document;
  t.same(leafTags(doc), {
    'page.p.en-GB.title': 'Quiet dishwasher',
    'page.p.en-GB.body.0.text': 'Same text',
    'page.p.en-GB.rich': '<b>bold</b>',
  });
});

t.test('only changed text fields are diffed against the published page, and sent as one diff-value', async (t) => {
  const { fetched } = browserGlobals(t, { status: 200, body: PUBLISHED });
  const { timeline, sent } = channel({
    'page.p.en-GB.title': 'Very quiet dishwasher',
    'page.p.en-GB.body.0.text': 'Same text',
    'page.p.en-GB.rich': '<b>bolder</b>',
    'page.p.en-GB.new': 'Not on the base page',
  });
  t.equal(await compareWith(timeline, '/cs/kitchen/quiet-4711'), 1, 'one field differs');
  t.same(fetched, [`/cs/kitchen/quiet-4711?live_preview=${PUBLISHED_HASH}`], 'the base is the page without drafts');
  const diff = sent.find((m) => m.type === 'diff-value')?.payload as { type: string; diff: Record<string, string> };
  t.equal(diff.type, 'compare');
  t.same(Object.keys(diff.diff), ['page.p.en-GB.title'], 'markup and fields new to the draft are left out');
  t.match(diff.diff['page.p.en-GB.title'], /<cs-compare class="cs-compare--added">Very<\/cs-compare>/);
});

t.test('nothing changed: no diff-value at all; removing the compare sends remove-diff', async (t) => {
  browserGlobals(t, { status: 200, body: PUBLISHED });
  const { timeline, sent } = channel({ 'page.p.en-GB.title': 'Quiet dishwasher' });
  t.equal(await compareWith(timeline, '/cs/kitchen/quiet-4711', 'wb-aaaaaaaaaaaa'), 0);
  t.same(
    sent.map((m) => m.type),
    ['send-cslp-data'],
  );
  await removeCompare(timeline);
  t.equal(sent.at(-1)?.type, 'remove-diff');
});

t.test('a base page that fails is an error that names its status', async (t) => {
  browserGlobals(t, { status: 503, body: 'busy' });
  const { timeline, sent } = channel({});
  await t.rejects(compareWith(timeline, '/cs/kitchen/quiet-4711'), /the base page answered 503/);
  t.same(sent, [], 'nothing was asked of the page');
});
