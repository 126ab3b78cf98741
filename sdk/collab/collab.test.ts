import { mock } from 'node:test';
import t, { type Test } from 'tap';
import { baseConfig } from '../config/defaults.ts';
import { EDITOR_ORIGIN, framedSite, settle } from '../test-editor.ts';
import { createChannel } from '../transport/channel.ts';
import { createPeer } from '../transport/peer.ts';
import { type Comment, startCollab, type Thread } from './collab.ts';
import { LENGTH_ERROR, MENTION_ERROR } from './text.ts';

/**
 * Threads, comments and pins in happy-dom, with the real editor library keeping threads in
 * memory. Layout and real typing are covered in test/e2e/collab.test.ts.
 */

const PAGE = 'https://www.halden.co.uk/cs/kitchen/?live_preview=h1&builder=true';
const ME = { uid: 'u-ada', email: 'ada@halden.co.uk' };
const USERS = [
  { uid: 'u-ada', email: 'ada@halden.co.uk', firstName: 'Ada', lastName: 'Lovelace' },
  { uid: 'u-bob', email: 'bob@halden.co.uk', firstName: 'Bob', lastName: 'Marley' },
  { uid: 'u-cy', email: 'cy@halden.co.uk', firstName: 'Cy' },
];

function start(t: Test, options: { payload?: Thread[]; comments?: Comment[]; empty?: string[] } = {}) {
  const framed = framedSite({ url: PAGE });
  const win = framed.site;
  win.document.body.innerHTML = '<main><h1 data-cslp="page.p1.en.title">Title</h1><p>Body</p></main>';
  const editor = framed.editor('visual-builder');
  const sent: { type: string; data: Record<string, unknown> }[] = [];
  const threads = new Map<string, Thread>((options.payload ?? []).map((th) => [th._id, th]));
  let comments: Comment[] = options.comments ?? [];
  let next = 1;
  const on = (type: string, answer: (data: Record<string, unknown>) => unknown) =>
    editor.on(type, (event) => {
      const data = event.data as Record<string, unknown>;
      sent.push({ type, data });
      return options.empty?.includes(type) ? {} : answer(data);
    });
  on('collab-create-thread', (data) => {
    const thread = { ...(data as unknown as Thread), _id: `th-${next++}` };
    threads.set(thread._id, thread);
    return { notice: 'ok', thread };
  });
  on('collab-create-comment', (data) => {
    const payload = data.commentPayload as Comment;
    const comment = {
      ...payload,
      _id: `c-${next++}`,
      threadUid: data.threadUid as string,
      createdAt: new Date().toISOString(),
    };
    comments = [comment, ...comments];
    return { notice: 'ok', comment };
  });
  on('collab-edit-comment', (data) => {
    const payload = data.payload as Comment;
    comments = comments.map((c) => (c._id === data.commentUid ? { ...c, ...payload } : c));
    return { notice: 'ok', comment: comments.find((c) => c._id === data.commentUid) };
  });
  on('collab-delete-comment', (data) => {
    comments = comments.filter((c) => c._id !== data.commentUid);
    return { notice: 'ok' };
  });
  on('collab-delete-thread', (data) => {
    threads.delete(data.threadUid as string);
    return { notice: 'ok' };
  });
  on('collab-resolve-thread', (data) => ({ notice: 'ok', thread: threads.get(data.threadUid as string) }));
  on('collab-fetch-comments', (data) => {
    const mine = comments.filter((c) => c.threadUid === data.threadUid);
    const offset = data.offset as number;
    return { comments: mine.slice(offset, offset + (data.limit as number)), count: mine.length };
  });
  on('collab-missing-threads', () => undefined);
  const config = baseConfig();
  config.collab.enable = true;
  config.collab.isFeedbackMode = true;
  config.collab.inviteMetadata = { currentUser: ME, users: USERS, inviteUid: 'inv-1' };
  config.collab.payload = options.payload ?? [];
  const channel = createChannel('visual-builder', win, createPeer(win, [EDITOR_ORIGIN]));
  const collab = startCollab({ win, config, channel, retryMs: 20 });
  t.teardown(async () => {
    collab.destroy();
    channel.destroy();
    await framed.close();
  });
  const root = () => win.document.querySelector('[data-testid="collab__container"]')?.shadowRoot as ShadowRoot;
  const $ = (selector: string) => root().querySelector(selector) as HTMLElement | null;
  const $$ = (selector: string) => Array.from(root().querySelectorAll(selector)) as HTMLElement[];
  const click = (element: Element) =>
    element.dispatchEvent(new win.MouseEvent('click', { bubbles: true, cancelable: true, clientX: 0, clientY: 0 }));
  const type = (text: string) => {
    const area = $('textarea') as HTMLTextAreaElement;
    area.value = text;
    area.setSelectionRange(text.length, text.length);
    area.dispatchEvent(new win.Event('input', { bubbles: true }));
  };
  const key = (k: string) =>
    ($('textarea') as HTMLElement).dispatchEvent(
      new win.KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }),
    );
  const button = (text: string) => $$('button').find((b) => b.textContent === text) as HTMLButtonElement;
  const inject = (type: string, payload: unknown) => editor.send(type, payload);
  return {
    win,
    config,
    editor,
    sent,
    threads,
    root,
    $,
    $$,
    click,
    type,
    key,
    button,
    inject,
    collab,
    comments: () => comments,
  };
}

const h1 = (win: Window) => win.document.querySelector('h1') as Element;
const THREAD: Thread = {
  _id: 'th-old',
  elementXPath: '/html[1]/body[1]/main[1]/p[1]',
  position: { x: 0.5, y: 0.5 },
  author: 'bob@halden.co.uk',
  createdBy: 'u-bob',
  pageRoute: '/cs/kitchen',
  inviteUid: 'inv-1',
  threadState: 1,
};
const BOB_COMMENT: Comment = {
  _id: 'c-bob',
  threadUid: 'th-old',
  message: 'Hello {{u-ada}}',
  toUsers: ['u-ada'],
  images: [],
  createdBy: 'u-bob',
  author: 'bob@halden.co.uk',
  createdAt: '2026-03-04T12:07:00Z',
};

t.test('feedback click makes a pin and popup; first post creates the thread, then the comment', async (t) => {
  const s = start(t);
  s.click(h1(s.win));
  t.equal(s.$$('.collab-pin').length, 1);
  t.equal(s.$('.collab-pin')?.getAttribute('threaduid'), 'new');
  t.equal(s.$('.collab-thread__title')?.textContent, 'Add New Comment');
  t.ok(s.button('Resolve').hidden, 'a new thread cannot be resolved');
  t.ok(s.button('Post').disabled, 'empty text blocks submit');
  t.equal(s.config.collab.isFeedbackMode, false);
  s.type('  Looks <b>great</b>\n\n @Bo');
  t.equal(s.$$('.collab-mentions li').length, 1);
  s.key('Enter');
  t.equal((s.$('textarea') as HTMLTextAreaElement).value, '  Looks <b>great</b>\n\n @Bob Marley ');
  t.equal(s.$('.collab-counter')?.textContent, '35/500');
  t.equal(Number((s.$('textarea') as HTMLTextAreaElement).rows), 3);
  s.button('Post').click();
  await settle(80);
  const create = s.sent.find((m) => m.type === 'collab-create-thread');
  t.same(create?.data, {
    elementXPath: '/html[1]/body[1]/main[1]/h1[1]',
    position: { x: 0, y: 0 },
    author: ME.email,
    createdBy: ME.uid,
    pageRoute: '/cs/kitchen',
    inviteUid: 'inv-1',
  });
  const comment = s.sent.find((m) => m.type === 'collab-create-comment');
  t.same(comment?.data, {
    threadUid: 'th-1',
    commentPayload: {
      message: 'Looks great {{u-bob}}',
      toUsers: ['u-bob'],
      images: [],
      createdBy: ME.uid,
      author: ME.email,
    },
  });
  t.equal(s.$('.collab-pin')?.getAttribute('threaduid'), 'th-1');
  t.equal(s.$('.collab-thread__title')?.textContent, '1 Comment');
  t.equal(s.$('.collab-mention')?.textContent, '@Bob Marley');
  t.notOk(s.button('Resolve').hidden);
});

t.test('closing a never-saved popup removes its pin and returns to feedback mode', async (t) => {
  const s = start(t);
  s.click(h1(s.win));
  s.button('Cancel').click();
  t.equal(s.$$('.collab-pin').length, 0);
  t.equal(s.$('.collab-thread'), null);
  t.equal(s.config.collab.isFeedbackMode, true);
});

t.test('pins render from the payload; only the author may edit or delete', async (t) => {
  const mine = { ...BOB_COMMENT, _id: 'c-ada', message: 'Mine', createdBy: ME.uid, author: ME.email };
  const s = start(t, { payload: [THREAD], comments: [mine, BOB_COMMENT] });
  t.equal(s.$('.collab-pin')?.getAttribute('threaduid'), 'th-old');
  t.equal(s.$('.collab-pin')?.title, 'Bob Marley', "the pin's tooltip names its author");
  s.click(s.$('.collab-pin') as HTMLElement);
  await settle(60);
  t.equal(s.$('.collab-thread__title')?.textContent, '2 Comments');
  t.equal(s.$('.collab-avatar')?.title, 'Ada Lovelace', "an avatar's tooltip names the author");
  const cards = s.$$('[data-testid="collab-comment"]');
  t.equal(cards.length, 2);
  t.equal(cards[0]?.querySelectorAll('button').length, 2, 'own comment: Edit and Delete');
  t.equal(cards[1]?.querySelectorAll('button').length, 0, "another author's comment: no buttons");
  t.equal(cards[1]?.querySelector('.collab-comment__message')?.textContent, 'Hello @Ada Lovelace');
  s.button('Edit').click();
  t.equal(s.button('Update').textContent, 'Update');
  s.type('Mine, edited');
  s.button('Update').click();
  await settle(60);
  t.same(s.sent.find((m) => m.type === 'collab-edit-comment')?.data, {
    threadUid: 'th-old',
    commentUid: 'c-ada',
    payload: { message: 'Mine, edited', toUsers: [], images: [], createdBy: ME.uid, author: ME.email },
  });
  t.equal(s.$$('.collab-comment__message')[0]?.textContent, 'Mine, edited');
  const del = s.$$('[data-testid="collab-comment"]')[0]?.querySelectorAll('button')[1] as HTMLButtonElement;
  del.click();
  await settle(60);
  t.equal(s.$('.collab-thread__title')?.textContent, '1 Comment');
  t.notOk(s.sent.some((m) => m.type === 'collab-delete-thread'));
});

t.test('deleting the last comment deletes the thread', async (t) => {
  const mine = { ...BOB_COMMENT, _id: 'c-ada', message: 'Mine', createdBy: ME.uid, author: ME.email };
  const s = start(t, { payload: [THREAD], comments: [mine] });
  s.click(s.$('.collab-pin') as HTMLElement);
  await settle(60);
  s.button('Delete').click();
  await settle(80);
  t.same(s.sent.find((m) => m.type === 'collab-delete-thread')?.data, { threadUid: 'th-old' });
  t.equal(s.$$('.collab-pin').length, 0);
  t.equal(s.$('.collab-thread'), null);
});

t.test('resolve closes the popup and removes the pin; reopen renders it again', async (t) => {
  const s = start(t, { payload: [THREAD], comments: [BOB_COMMENT] });
  s.click(s.$('.collab-pin') as HTMLElement);
  await settle(60);
  s.button('Resolve').click();
  await settle(60);
  t.same(s.sent.find((m) => m.type === 'collab-resolve-thread')?.data, {
    threadUid: 'th-old',
    payload: { threadState: 2 },
  });
  t.equal(s.$('.collab-thread'), null);
  t.equal(s.$$('.collab-pin').length, 0);
  await s.inject('collab-thread-reopen', { thread: { ...THREAD, threadState: 2 } });
  await settle(40);
  t.equal(s.$('.collab-pin')?.getAttribute('threaduid'), 'th-old');
});

t.test('an empty reply is an error and changes nothing', async (t) => {
  const s = start(t, { payload: [THREAD], comments: [BOB_COMMENT], empty: ['collab-resolve-thread'] });
  s.click(s.$('.collab-pin') as HTMLElement);
  await settle(60);
  s.button('Resolve').click();
  await settle(60);
  t.ok(s.$('.collab-thread'), 'popup stays open');
});

t.test('limit messages block submit', async (t) => {
  const s = start(t);
  s.click(h1(s.win));
  s.type('x'.repeat(501));
  t.equal(s.$('.collab-error')?.textContent, LENGTH_ERROR);
  t.ok(s.button('Post').disabled);
  t.equal(s.$('.collab-counter')?.textContent, '501/500');
  s.type('ok');
  t.equal(s.$('.collab-error')?.textContent, '');
  t.notOk(s.button('Post').disabled);
  t.equal(MENTION_ERROR, 'Limit exceeded. You can tag a maximum of 20 users.');
});

t.test('mention list: arrows, Escape, case-insensitive filter', async (t) => {
  const s = start(t);
  s.click(h1(s.win));
  s.type('@');
  t.equal(s.$$('.collab-mentions li').length, 3);
  s.key('ArrowDown');
  t.equal(s.$$('.collab-mentions li')[1]?.getAttribute('aria-selected'), 'true');
  s.key('ArrowUp');
  s.key('ArrowUp');
  t.equal(s.$$('.collab-mentions li')[2]?.getAttribute('aria-selected'), 'true', 'wraps around');
  s.key('Escape');
  t.ok((s.$('.collab-mentions') as HTMLElement).hidden);
  s.type('hi @LOVE');
  t.equal(s.$$('.collab-mentions li').length, 1);
});

t.test('pause hides pins and ignores clicks; enable and disable from the editor', async (t) => {
  const s = start(t, { payload: [THREAD] });
  await s.inject('collab-disable', { collab: { fromShare: true } });
  await settle(20);
  t.ok(s.$('.collab-pins')?.classList.contains('collab-pins--paused'));
  s.click(h1(s.win));
  t.equal(s.$('.collab-thread'), null);
  await s.inject('collab-enable', { collab: { fromShare: true, isFeedbackMode: true } });
  await settle(20);
  t.notOk(s.$('.collab-pins')?.classList.contains('collab-pins--paused'));
  s.click(h1(s.win));
  t.ok(s.$('.collab-thread'));
  await s.inject('collab-disable', { collab: {} });
  await settle(20);
  t.equal(s.config.collab.enable, false);
  t.equal(s.config.collab.isFeedbackMode, false);
  t.equal(s.$('.collab-thread'), null);
});

t.test('a missing element is retried 5 times, then reported', async (t) => {
  const s = start(t);
  const missing = { ...THREAD, _id: 'th-gone', elementXPath: '/html[1]/body[1]/aside[1]' };
  await s.inject('collab-data-update', { collab: { payload: [missing] } });
  await settle(60);
  t.notOk(
    s.sent.some((m) => m.type === 'collab-missing-threads'),
    'still retrying',
  );
  await settle(150);
  t.same(s.sent.find((m) => m.type === 'collab-missing-threads')?.data, {
    payload: { isElementPresent: false },
    threadUids: ['th-gone'],
  });
});

t.test('a missing element that appears during the retries gets its pin', async (t) => {
  const s = start(t);
  const late = { ...THREAD, _id: 'th-late', elementXPath: '/html[1]/body[1]/aside[1]' };
  await s.inject('collab-data-update', { collab: { payload: [late] } });
  await settle(30);
  s.win.document.body.append(s.win.document.createElement('aside'));
  await settle(200);
  t.equal(s.$('.collab-pin')?.getAttribute('threaduid'), 'th-late');
  t.notOk(s.sent.some((m) => m.type === 'collab-missing-threads'));
  await s.inject('collab-threads-remove', { threadUids: ['th-late'] });
  await settle(20);
  t.equal(s.$$('.collab-pin').length, 0);
});

t.test('comments page 10 at a time, more near the end of the list', async (t) => {
  const many = Array.from({ length: 23 }, (_, i) => ({ ...BOB_COMMENT, _id: `c${i}`, message: `m${i}` }));
  const s = start(t, { payload: [THREAD], comments: many });
  s.click(s.$('.collab-pin') as HTMLElement);
  t.equal(s.$$('.collab-skeleton').length, 3, 'loading skeletons while the first page comes');
  await settle(60);
  t.equal(s.$$('[data-testid="collab-comment"]').length, 10);
  t.equal(s.$('.collab-thread__title')?.textContent, '23 Comments');
  const list = s.$('[data-testid="collab-thread-list"]') as HTMLElement;
  list.dispatchEvent(new s.win.Event('scroll'));
  await settle(60);
  t.equal(s.$$('[data-testid="collab-comment"]').length, 20);
  t.same(
    s.sent.filter((m) => m.type === 'collab-fetch-comments').map((m) => m.data),
    [
      { threadUid: 'th-old', offset: 0, limit: 10 },
      { threadUid: 'th-old', offset: 10, limit: 10 },
    ],
  );
});

t.test('highlighted-comment icons open the field comment modal and are removed on request', async (t) => {
  const s = start(t);
  const opened: unknown[] = [];
  s.editor.on('open-field-comment-modal', (event) => {
    opened.push(event.data);
  });
  const field = { content_type_uid: 'page', entry_uid: 'p1', locale: 'en', fieldPath: 'title' };
  await s.inject('highlight-active-comments-by-data-cs', {
    payload: [
      { fieldMetadata: field, fieldSchema: { uid: 'title' }, discussion: { uid: 'd1' }, absolutePath: 'title' },
    ],
  });
  await settle(20);
  const icon = s.$('.collab-comment-icon') as HTMLButtonElement;
  t.ok(icon, 'one icon next to the title');
  t.equal(s.$$('.collab-comment-icon').length, 1);
  icon.click();
  await settle(40);
  t.same(opened, [
    { fieldMetadata: field, discussion: { uid: 'd1' }, fieldSchema: { uid: 'title' }, absolutePath: 'title' },
  ]);
  t.equal(s.$('.collab-thread'), null, 'the icon click starts no thread');
  await s.inject('remove-highlighted-comments', undefined);
  await settle(20);
  t.equal(s.$$('.collab-comment-icon').length, 0);
});

t.test("a new thread is created from its pin's attributes; a pin without them creates nothing", async (t) => {
  const s = start(t);
  s.click(h1(s.win));
  const pin = s.$('.collab-pin') as HTMLElement;
  t.equal(pin.getAttribute('field-path'), '/html[1]/body[1]/main[1]/h1[1]');
  t.equal(pin.getAttribute('relative'), 'x: 0, y: 0');
  pin.setAttribute('relative', 'somewhere');
  s.type('First');
  s.button('Post').click();
  await settle(60);
  pin.removeAttribute('field-path');
  s.button('Post').click();
  await settle(60);
  t.notOk(
    s.sent.some((m) => m.type === 'collab-create-thread'),
    'Invalid relative attribute, then Invalid field attributes: no thread',
  );
  t.ok(s.$('.collab-thread'), 'the popup stays with the text');
  pin.setAttribute('field-path', '/html[1]/body[1]/main[1]/p[1]');
  pin.setAttribute('relative', 'x: 0.25, y: 0.5');
  s.button('Post').click();
  await settle(80);
  t.match(s.sent.find((m) => m.type === 'collab-create-thread')?.data, {
    elementXPath: '/html[1]/body[1]/main[1]/p[1]',
    position: { x: 0.25, y: 0.5 },
  });
});

t.test('a pin whose element leaves the page hides, and shows again when the element is back', async (t) => {
  const s = start(t, { payload: [THREAD] });
  const pin = s.$('.collab-pin') as HTMLElement;
  t.notOk(pin.hidden);
  const p = s.win.document.querySelector('p') as Element;
  p.remove();
  s.win.dispatchEvent(new s.win.Event('resize'));
  t.ok(pin.hidden, 'hidden while its element is missing');
  s.win.document.querySelector('main')?.append(p);
  s.win.dispatchEvent(new s.win.Event('resize'));
  t.notOk(pin.hidden, 'shown again');
});

t.test('typing places the popup again, 200 ms after the last input (fake timers)', async (t) => {
  const s = start(t);
  s.click(h1(s.win));
  // Placement is asynchronous (Floating UI): its first steps run in microtasks.
  const flushed = () => new Promise((resolve) => setImmediate(resolve));
  await flushed();
  // happy-dom lays nothing out, so where the popup goes is checked in Chromium
  // (test/e2e/collab.test.ts); here, when: each placement measures the pin.
  const pin = s.$('.collab-pin--active') as HTMLElement;
  let measured = 0;
  const rect = pin.getBoundingClientRect.bind(pin);
  pin.getBoundingClientRect = () => {
    measured++;
    return rect();
  };
  mock.timers.enable({ apis: ['setTimeout'] });
  t.teardown(() => mock.timers.reset());
  s.type('Line one');
  mock.timers.tick(150);
  s.type('Line one, two');
  mock.timers.tick(199);
  await flushed();
  t.equal(measured, 0, 'not while typing');
  mock.timers.tick(1);
  await flushed();
  t.equal(measured, 1, 'placed again once typing paused');
});

t.test('an editor message without its collab object is logged and ignored', async (t) => {
  const s = start(t);
  s.click(h1(s.win));
  await s.inject('collab-disable', {});
  await s.inject('collab-enable', { enable: false });
  await settle(20);
  t.equal(s.config.collab.enable, true);
  t.ok(s.$('.collab-thread'), 'the popup stays open');
});
