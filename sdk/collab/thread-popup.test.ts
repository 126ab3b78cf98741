import t from 'tap';
import { BOB_COMMENT, h1, ME, start, THREAD } from './test-collab.ts';

/** The thread popup: deleting, resolving, empty replies, paging, re-placement while typing. */

t.test('deleting the last comment deletes the thread', async (t) => {
  const mine = { ...BOB_COMMENT, _id: 'c-ada', message: 'Mine', createdBy: ME.uid, author: ME.email };
  const s = start(t, { payload: [THREAD], comments: [mine] });
  s.click(s.$('.collab-pin') as HTMLElement);
  await s.advance(60);
  s.button('Delete').click();
  await s.advance(80);
  t.same(s.sent.find((m) => m.type === 'collab-delete-thread')?.data, { threadUid: 'th-old' });
  t.equal(s.$$('.collab-pin').length, 0);
  t.equal(s.$('.collab-thread'), null);
});

t.test('resolve closes the popup and removes the pin; reopen renders it again', async (t) => {
  const s = start(t, { payload: [THREAD], comments: [BOB_COMMENT] });
  s.click(s.$('.collab-pin') as HTMLElement);
  await s.advance(60);
  s.button('Resolve').click();
  await s.advance(60);
  t.same(s.sent.find((m) => m.type === 'collab-resolve-thread')?.data, {
    threadUid: 'th-old',
    payload: { threadState: 2 },
  });
  t.equal(s.$('.collab-thread'), null);
  t.equal(s.$$('.collab-pin').length, 0);
  await s.inject('collab-thread-reopen', { thread: { ...THREAD, threadState: 2 } });
  await s.advance(40);
  t.equal(s.$('.collab-pin')?.getAttribute('threaduid'), 'th-old');
});

t.test('an empty reply is an error and changes nothing', async (t) => {
  const s = start(t, { payload: [THREAD], comments: [BOB_COMMENT], empty: ['collab-resolve-thread'] });
  s.click(s.$('.collab-pin') as HTMLElement);
  await s.advance(60);
  s.button('Resolve').click();
  await s.advance(60);
  t.ok(s.$('.collab-thread'), 'popup stays open');
});

t.test('comments page 10 at a time, more near the end of the list', async (t) => {
  const many = Array.from({ length: 23 }, (_, i) => ({ ...BOB_COMMENT, _id: `c${i}`, message: `m${i}` }));
  const s = start(t, { payload: [THREAD], comments: many });
  s.click(s.$('.collab-pin') as HTMLElement);
  t.equal(s.$$('.collab-skeleton').length, 3, 'loading skeletons while the first page comes');
  await s.advance(60);
  t.equal(s.$$('[data-testid="collab-comment"]').length, 10);
  t.equal(s.$('.collab-thread__title')?.textContent, '23 Comments');
  const list = s.$('[data-testid="collab-thread-list"]') as HTMLElement;
  list.dispatchEvent(new s.win.Event('scroll'));
  await s.advance(60);
  t.equal(s.$$('[data-testid="collab-comment"]').length, 20);
  t.same(
    s.sent.filter((m) => m.type === 'collab-fetch-comments').map((m) => m.data),
    [
      { threadUid: 'th-old', offset: 0, limit: 10 },
      { threadUid: 'th-old', offset: 10, limit: 10 },
    ],
  );
});

t.test('typing places the popup again, 200 ms after the last input (fake timers)', async (t) => {
  const s = start(t);
  s.click(h1(s.win));
  await s.advance(0);
  // happy-dom lays nothing out, so where the popup goes is checked in Chromium
  // (test/e2e/collab.test.ts); here, when: each placement measures the pin.
  const pin = s.$('.collab-pin--active') as HTMLElement;
  let measured = 0;
  const rect = pin.getBoundingClientRect.bind(pin);
  pin.getBoundingClientRect = () => {
    measured++;
    return rect();
  };
  s.type('Line one');
  await s.advance(150);
  s.type('Line one, two');
  await s.advance(199);
  t.equal(measured, 0, 'not while typing');
  await s.advance(1);
  t.equal(measured, 1, 'placed again once typing paused');
});
