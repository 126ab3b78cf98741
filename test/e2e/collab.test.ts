import type { Frame, Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { until } from '../until.ts';
import { received, startEditorSuite, waitFor } from './editor.ts';

/**
 * Collaboration in Chromium: an editor page on another origin frames the
 * dishwasher page in builder mode with collaboration enabled and plays the editor with the real
 * @contentstack/advanced-post-message, keeping threads and comments in memory. Covered: a thread
 * created on an element, posting, a keyboard mention, editing and deleting own comments, no edit
 * on another author's, resolve, reopen, the limit messages, a missing element retried then reported.
 */

const DISHWASHER = '/cs/kitchen/aquasense-60-dishwasher-4711';
/** Playwright's CSS engine pierces the open shadow root. */
const UI = '[data-testid="collab__container"]';
const PIN = `${UI} .collab-pin`;
const THREAD = `${UI} [data-testid="collab-thread"]`;

declare global {
  interface Window {
    threads: Record<string, Record<string, unknown>>;
    comments: Record<string, unknown>[];
  }
}

const ME = { uid: 'u-ada', email: 'ada@halden.co.uk' };
const USERS = [
  { uid: 'u-ada', email: 'ada@halden.co.uk', firstName: 'Ada', lastName: 'Lovelace' },
  { uid: 'u-bob', email: 'bob@halden.co.uk', firstName: 'Bob', lastName: 'Marley' },
  { uid: 'u-cy', email: 'cy@halden.co.uk', firstName: 'Cy' },
];

/** A builder editor with collaboration on, keeping threads and comments in memory. */
const EDITOR = `
  const { lp, vb } = channels;
  window.threads = {};
  window.comments = [];
  let next = 1;
  const collab = { enable: true, isFeedbackMode: true,
    inviteMetadata: { currentUser: ${JSON.stringify(ME)}, users: ${JSON.stringify(USERS)}, inviteUid: 'inv-1' }, payload: [] };
  record(lp, 'init', () => ({ contentTypeUid: 'page', entryUid: '4711', windowType: 'builder' }));
  record(vb, 'init', () => ({ windowType: 'builder', stackDetails: { masterLocale: 'en-us' }, collab }));
  record(vb, 'collab-create-thread', (data) => {
    const thread = { ...data, _id: 'th-' + next++, threadState: 1 };
    threads[thread._id] = thread;
    return { notice: 'created', thread };
  });
  record(vb, 'collab-create-comment', (data) => {
    const comment = { ...data.commentPayload, _id: 'c-' + next++, threadUid: data.threadUid, createdAt: new Date().toISOString() };
    comments.unshift(comment);
    return { notice: 'created', comment };
  });
  record(vb, 'collab-edit-comment', (data) => {
    const comment = comments.find((c) => c._id === data.commentUid);
    Object.assign(comment, data.payload, { updatedAt: new Date().toISOString() });
    return { notice: 'updated', comment };
  });
  record(vb, 'collab-delete-comment', (data) => {
    comments = comments.filter((c) => c._id !== data.commentUid);
    return { notice: 'deleted' };
  });
  record(vb, 'collab-delete-thread', (data) => { delete threads[data.threadUid]; return { notice: 'deleted' }; });
  record(vb, 'collab-resolve-thread', (data) => {
    threads[data.threadUid].threadState = data.payload.threadState;
    return { notice: 'resolved', thread: threads[data.threadUid] };
  });
  record(vb, 'collab-fetch-comments', (data) => {
    const mine = comments.filter((c) => c.threadUid === data.threadUid);
    return { comments: mine.slice(data.offset, data.offset + data.limit), count: mine.length };
  });
  for (const type of ['collab-missing-threads', 'send-variant-and-locale', 'mouse-click', 'get-field-schema',
    'get-permissions', 'focus-field']) record(vb, type);
  for (const type of ['check-entry-page', 'url-change']) record(lp, type);`;

const editor = await startEditorSuite(t, { script: EDITOR });

async function openCollab(t: Test): Promise<{ page: Page; site: Frame }> {
  const url = editor.server.url(
    'uk',
    `${DISHWASHER}?live_preview=collab-e2e&content_type_uid=page&entry_uid=4711&builder=true`,
  );
  const opened = await editor.open(t, url, { until: 'send-variant-and-locale' });
  await opened.site.waitForSelector(UI, { state: 'attached', timeout: 10_000 });
  return opened;
}

/** The payloads of what the layer sent of one type. */
const sent = async (page: Page, type: string) => (await received(page, type)).map((r) => r.data);
const sentWait = async (page: Page, type: string, count = 1) => (await waitFor(page, type, count)).map((r) => r.data);

const button = (site: Frame, text: string) => site.locator(`${THREAD} button`, { hasText: text });

async function newThreadWithComment(site: Frame, page: Page, text: string) {
  await site.click('h1', { position: { x: 10, y: 5 } });
  await site.waitForSelector(THREAD);
  await site.fill(`${THREAD} textarea`, text);
  await button(site, 'Post').click();
  await sentWait(page, 'collab-create-comment');
}

t.test('a click starts a thread; the first post creates it; a keyboard mention is stored as an id', async (t) => {
  const { page, site } = await openCollab(t);
  await site.click('h1', { position: { x: 10, y: 5 } });
  await site.waitForSelector(THREAD);
  t.equal(await site.textContent(`${THREAD} .collab-thread__title`), 'Add New Comment');
  t.equal(await site.getAttribute(PIN, 'threaduid'), 'new');
  t.equal((await sent(page, 'mouse-click')).length, 0, 'no mouse-click while collaboration is on');
  const area = site.locator(`${THREAD} textarea`);
  await area.pressSequentially('Please check <b>this</b>  @bo');
  await site.waitForSelector(`${UI} .collab-mentions li`);
  await area.press('ArrowDown');
  await area.press('ArrowUp');
  await area.press('Enter');
  t.equal(await area.inputValue(), 'Please check <b>this</b>  @Bob Marley ');
  await button(site, 'Post').click();
  const [thread] = await sentWait(page, 'collab-create-thread');
  t.match(thread, {
    elementXPath: /^\/html\[1\]\/body\[1\]\/.*h1\[1\]$/,
    author: ME.email,
    createdBy: ME.uid,
    pageRoute: DISHWASHER,
    inviteUid: 'inv-1',
  });
  const position = (thread as { position: { x: number; y: number } }).position;
  t.ok(position.x > 0 && position.x < 1 && position.y > 0 && position.y < 1, 'fractions of the element');
  const [comment] = await sentWait(page, 'collab-create-comment');
  t.same(comment, {
    threadUid: 'th-1',
    commentPayload: {
      message: 'Please check this {{u-bob}}',
      toUsers: ['u-bob'],
      images: [],
      createdBy: ME.uid,
      author: ME.email,
    },
  });
  await site.waitForSelector(`${THREAD} .collab-mention`);
  t.equal(await site.textContent(`${THREAD} .collab-thread__title`), '1 Comment');
  t.equal(await site.getAttribute(PIN, 'threaduid'), 'th-1');
});

t.test('own comments are edited and deleted; the last delete deletes the thread', async (t) => {
  const { page, site } = await openCollab(t);
  await newThreadWithComment(site, page, 'First');
  await button(site, 'Edit').click();
  await site.fill(`${THREAD} textarea`, 'First, edited');
  await button(site, 'Update').click();
  const [edit] = await sentWait(page, 'collab-edit-comment');
  t.match(edit, { threadUid: 'th-1', commentUid: 'c-2', payload: { message: 'First, edited' } });
  await site.waitForSelector(`${THREAD} .collab-comment__message:text("First, edited")`);
  await button(site, 'Delete').click();
  t.same((await sentWait(page, 'collab-delete-thread'))[0], { threadUid: 'th-1' });
  await site.waitForSelector(PIN, { state: 'detached' });
  await site.waitForSelector(THREAD, { state: 'detached' });
});

t.test("another author's comment cannot be edited; resolve closes; reopen renders the pin", async (t) => {
  const { page, site } = await openCollab(t);
  await newThreadWithComment(site, page, 'Mine');
  await page.evaluate(() => {
    window.comments.push({
      _id: 'c-bob',
      threadUid: 'th-1',
      message: 'From Bob to {{u-ada}}',
      toUsers: ['u-ada'],
      images: [],
      createdBy: 'u-bob',
      author: 'bob@halden.co.uk',
      createdAt: '2026-03-04T12:07:00Z',
    });
  });
  // Close and reopen the thread: the list is fetched again.
  await button(site, 'Cancel').click();
  await site.click(PIN);
  await site.waitForSelector(`${THREAD} .collab-thread__title:text("2 Comments")`);
  const bob = site.locator(`${THREAD} [data-testid="collab-comment"]`, { hasText: 'From Bob' });
  t.equal(await bob.locator('button').count(), 0, 'no Edit or Delete on another author');
  t.equal(await bob.locator('.collab-comment__message').textContent(), 'From Bob to @Ada Lovelace');
  await button(site, 'Resolve').click();
  t.same((await sentWait(page, 'collab-resolve-thread'))[0], { threadUid: 'th-1', payload: { threadState: 2 } });
  await site.waitForSelector(THREAD, { state: 'detached' });
  await site.waitForSelector(PIN, { state: 'detached' });
  await page.evaluate(() => window.channels.vb.send('collab-thread-reopen', { thread: window.threads['th-1'] }));
  await site.waitForSelector(`${PIN}[threaduid="th-1"]`);
});

t.test('the limits show their messages and block posting', async (t) => {
  const { site } = await openCollab(t);
  await site.click('h1', { position: { x: 10, y: 5 } });
  await site.fill(`${THREAD} textarea`, 'x'.repeat(501));
  await site.waitForSelector(
    `${THREAD} .collab-error:text("Limit exceeded. You can have a maximum length of 500 characters.")`,
  );
  t.ok(await button(site, 'Post').isDisabled());
  t.equal(await site.textContent(`${THREAD} .collab-counter`), '501/500');
  await site.fill(`${THREAD} textarea`, '');
  t.ok(await button(site, 'Post').isDisabled(), 'empty text blocks posting');
});

t.test('a thread whose element is missing is retried, then reported', async (t) => {
  const { page, site } = await openCollab(t);
  const started = Date.now();
  await page.evaluate(() =>
    window.channels.vb.send('collab-data-update', {
      collab: {
        payload: [
          {
            _id: 'th-gone',
            elementXPath: '/html[1]/body[1]/nowhere[1]',
            position: { x: 0.5, y: 0.5 },
            author: 'bob@halden.co.uk',
            createdBy: 'u-bob',
            pageRoute: '/x',
            inviteUid: 'inv-1',
            threadState: 1,
          },
        ],
      },
    }),
  );
  await page.waitForFunction(() => window.received.some((r) => r.type === 'collab-missing-threads'), undefined, {
    timeout: 10_000,
  });
  t.ok(Date.now() - started >= 4_500, 'after 5 retries 1 s apart');
  t.same(await sent(page, 'collab-missing-threads'), [
    { payload: { isElementPresent: false }, threadUids: ['th-gone'] },
  ]);
  t.equal(await site.locator(PIN).count(), 0);
});

t.test('popup size and the mention list flipping above when less than 160 px is free below', async (t) => {
  const { site } = await openCollab(t);
  await site.click('h1', { position: { x: 10, y: 5 } });
  const popup = await site.waitForSelector(THREAD);
  const rootFont = await site.evaluate(() => Number.parseFloat(getComputedStyle(document.documentElement).fontSize));
  t.equal((await popup.boundingBox())?.width, 20.75 * rootFont, 'thread width 20.75rem');
  const area = site.locator(`${THREAD} textarea`);
  await area.pressSequentially('@');
  const list = await site.waitForSelector(`${UI} .collab-mentions:not([hidden])`);
  const [below, input] = await Promise.all([list.boundingBox(), area.boundingBox()]);
  t.ok(below && input && below.y >= input.y + input.height - 1, 'below the input when there is room');
  t.equal(await site.locator(`${UI} .collab-mentions li`).count(), 3);
  await area.press('Escape');
  await site.waitForSelector(`${UI} .collab-mentions`, { state: 'hidden' });
  await button(site, 'Cancel').click();
  // A thread near the bottom of the viewport: its popup sits low, so the list goes above.
  await site.locator('html').click({ position: { x: 600, y: 745 } });
  await site.waitForSelector(THREAD);
  await area.pressSequentially('@');
  const flipped = await site.waitForSelector(`${UI} .collab-mentions:not([hidden])`);
  // The list is placed a frame after it shows (floating-ui measures first): wait for it to settle above.
  const settled = await until(
    async () => {
      const [above, low] = await Promise.all([flipped.boundingBox(), area.boundingBox()]);
      return above && low && above.y + above.height <= low.y + 1 && { above, low };
    },
    { what: 'the mention list to be placed above the input', timeout: 5_000 },
  ).catch(() => undefined);
  t.ok(settled, 'above the input when less than 160 px is free');
});

t.test('a popup near the bottom is placed again, with its own size, inside the viewport', async (t) => {
  const { site } = await openCollab(t);
  await site.locator('html').click({ position: { x: 600, y: 745 } });
  await site.waitForSelector(THREAD);
  await site.fill(`${THREAD} textarea`, 'A first comment');
  await button(site, 'Post').click();
  await site.waitForSelector(`${THREAD} .collab-thread__title:text("1 Comment")`);
  // In the frame's own viewport (a bounding box would be the editor page's).
  const box = () =>
    site.locator(THREAD).evaluate((popup) => ({ ...popup.getBoundingClientRect().toJSON(), viewport: innerHeight }));
  const posted = await box();
  await site.locator(`${THREAD} textarea`).pressSequentially('and a reply');
  // The composer grew to 3 rows; the popup is placed again once typing pauses: it moves up.
  const { bottom, height, viewport } = await until(
    async () => {
      const now = await box();
      return now.height > posted.height && now.top !== posted.top && now;
    },
    { what: 'the grown popup to be placed again' },
  );
  t.ok(height > 198, `taller than the default 198 px (${height} px)`);
  t.ok(bottom <= viewport - 16 + 0.5, `its bottom 16 px inside the viewport (${bottom} of ${viewport})`);
});

t.test('a popup opened near the top of the frame keeps the 42 px top safe margin', async (t) => {
  const { site } = await openCollab(t);
  // The pin sits 43 px above the click: its popup would start above the frame.
  await site.locator('html').click({ position: { x: 300, y: 10 } });
  await site.waitForSelector(THREAD);
  const { top, left } = await site.locator(THREAD).evaluate((popup) => popup.getBoundingClientRect().toJSON());
  t.ok(Math.abs(top - 42) < 1, `42 px below the top of the frame (${top})`);
  t.ok(left >= 16, `16 px inside the left edge at least (${left})`);
});
