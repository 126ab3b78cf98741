import t, { type Test } from 'tap';
import type { PageWindow } from '../dom.ts';
import { EDITOR_ORIGIN, framedSite } from '../test-editor.ts';
import { createChannel } from '../transport/channel.ts';
import { createPeer } from '../transport/peer.ts';
import { handleTimeline } from './timeline.ts';

/**
 * The compare view against the real editor: base route, tag contents, a diff that reaches the page
 * only through the sanitiser, and its removal. DOMPurify itself runs in the browser tests
 * (happy-dom lacks what it needs); here a stand-in strips scripts and handlers and records its input.
 */

function standInSanitizer(calls: string[]) {
  return (html: string, win: PageWindow): DocumentFragment => {
    calls.push(html);
    const template = win.document.createElement('template');
    template.innerHTML = html;
    for (const script of Array.from(template.content.querySelectorAll('script'))) script.remove();
    for (const element of Array.from(template.content.querySelectorAll('*')))
      for (const name of element.getAttributeNames()) if (name.startsWith('on')) element.removeAttribute(name);
    return template.content;
  };
}

const BODY = `<main data-cslp="page.4711.en-GB">
  <h1 data-cslp="page.4711.en-GB.title">AquaSense <b>60</b></h1>
  <p data-cslp="page.4711.en-GB.summary">Quiet and thrifty.</p>
  <img data-cslp="page.4711.en-GB.image" src="/images/a.svg" alt="Dishwasher">
</main>`;

function setup(t: Test) {
  const framed = framedSite({
    url: 'https://www.halden.co.uk/cs/kitchen/aquasense-60-dishwasher-4711?live_preview=h1#top',
  });
  const win = framed.site;
  win.document.body.innerHTML = BODY;
  const channel = createChannel('timeline', win, createPeer(win, [EDITOR_ORIGIN]));
  let loads = 0;
  const sanitized: string[] = [];
  handleTimeline(win, channel, async () => {
    loads++;
    return standInSanitizer(sanitized);
  });
  const editor = framed.editor('timeline');
  t.teardown(async () => {
    channel.destroy();
    await framed.close();
  });
  return { win, editor, delivered: framed.delivered, loads: () => loads, sanitized };
}

t.test('the base route is the page URL without its query', async (t) => {
  const { editor } = setup(t);
  t.same(await editor.send('send-current-base-route'), {
    url: 'https://www.halden.co.uk/cs/kitchen/aquasense-60-dishwasher-4711',
  });
});

t.test('tag contents: inner HTML of leaf tags, attribute text of void elements', async (t) => {
  const { editor } = setup(t);
  t.same(await editor.send('send-cslp-data'), {
    'page.4711.en-GB.title': 'AquaSense <b>60</b>',
    'page.4711.en-GB.summary': 'Quiet and thrifty.',
    'page.4711.en-GB.image': 'data-cslp -> page.4711.en-GB.image\nsrc -> /images/a.svg\nalt -> Dishwasher\n',
  });
});

t.test('invalid tags are skipped in the tag contents and the diff, as 4.4.1 does', async (t) => {
  const { win, editor } = setup(t);
  win.document
    .querySelector('main')
    ?.insertAdjacentHTML(
      'beforeend',
      '<span data-cslp="page.4711">short</span><span data-cslp="v2:page.4711.en-GB.note">no variant</span>',
    );
  t.same(Object.keys((await editor.send('send-cslp-data')) as object), [
    'page.4711.en-GB.title',
    'page.4711.en-GB.summary',
    'page.4711.en-GB.image',
  ]);
  await editor.send('diff-value', {
    type: 'compare',
    diff: { 'page.4711': 'changed', 'v2:page.4711.en-GB.note': 'x' },
  });
  t.same(
    Array.from(win.document.querySelectorAll('span'), (span) => span.innerHTML),
    ['short', 'no variant'],
    'untouched',
  );
});

t.test('a diff is sanitised before it touches the page, then removed with the original nodes back', async (t) => {
  const { win, editor, loads, sanitized } = setup(t);
  const doc = win.document;
  const bold = doc.querySelector('h1 b');
  t.equal(loads(), 0, 'the sanitiser is not loaded before a diff arrives');
  await editor.send('diff-value', {
    type: 'compare',
    diff: {
      'page.4711.en-GB.title':
        'AquaSense <cs-compare class="cs-compare--added">60</cs-compare><cs-compare class="cs-compare--added"> Pro</cs-compare><img src=x onerror="parent.hacked=1"><script>parent.hacked=1</script>',
      'page.4711.en-GB.image': 'data-cslp -> x',
      'page.4711.en-GB.main': '<b>not a leaf</b>',
      __proto__: 'ignored',
    },
  });
  t.equal(loads(), 1);
  t.equal(sanitized.length, 1, 'each changed value goes through the sanitiser; void elements only get a class');
  const title = doc.querySelector('h1');
  t.equal(title?.querySelectorAll('cs-compare').length, 1, 'adjacent added wrappers merged into one');
  t.equal(title?.querySelector('cs-compare')?.textContent, '60 Pro');
  t.ok(title?.querySelector('script') === null, 'what lands is the sanitiser output');
  t.notOk(title?.querySelector('img')?.hasAttribute('onerror'), 'event handler attributes removed');
  t.ok(doc.querySelector('img[data-cslp]')?.classList.contains('cs-compare__void--added'), 'void elements outlined');
  t.equal(doc.querySelector('main')?.firstElementChild?.tagName, 'H1', 'non-leaf tags untouched');

  await editor.send('diff-value', {
    type: 'base',
    diff: { 'page.4711.en-GB.summary': '<cs-compare class="cs-compare--removed">Quiet</cs-compare> and thrifty.' },
  });
  t.equal(doc.querySelector('p cs-compare.cs-compare--removed')?.textContent, 'Quiet', 'base marks removed content');

  t.equal(await editor.send('remove-diff'), undefined);
  t.equal(title?.innerHTML, 'AquaSense <b>60</b>', 'original content back');
  t.equal(doc.querySelector('h1 b'), bold, 'the very same nodes, not a copy');
  t.equal(doc.querySelector('p')?.textContent, 'Quiet and thrifty.');
  t.equal(doc.querySelectorAll('cs-compare, .cs-compare__void--added, .cs-compare__void--removed').length, 0);
});

t.test('a diff the layer cannot read is answered with an error, the page untouched', async (t) => {
  const { win, editor, delivered } = setup(t);
  const before = win.document.body.innerHTML;
  await t.rejects(editor.send('diff-value', { type: 'compare', diff: { 'page.4711.en-GB.title': 42 } }), {
    code: 'CODE_RETURNED_ERROR',
  });
  await delivered();
  t.equal(win.document.body.innerHTML, before);
});
