import t from 'tap';
import { BOB_COMMENT, h1, ME, start, THREAD } from './test-collab.ts';

/** Pins: where they come from, who may change their comments, retries for missing elements, following the page. */

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
  await s.advance(60);
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
  await s.advance(60);
  t.same(s.sent.find((m) => m.type === 'collab-edit-comment')?.data, {
    threadUid: 'th-old',
    commentUid: 'c-ada',
    payload: { message: 'Mine, edited', toUsers: [], images: [], createdBy: ME.uid, author: ME.email },
  });
  t.equal(s.$$('.collab-comment__message')[0]?.textContent, 'Mine, edited');
  const del = s.$$('[data-testid="collab-comment"]')[0]?.querySelectorAll('button')[1] as HTMLButtonElement;
  del.click();
  await s.advance(60);
  t.equal(s.$('.collab-thread__title')?.textContent, '1 Comment');
  t.notOk(s.sent.some((m) => m.type === 'collab-delete-thread'));
});

t.test('a missing element is retried 5 times, then reported', async (t) => {
  const s = start(t);
  const missing = { ...THREAD, _id: 'th-gone', elementXPath: '/html[1]/body[1]/aside[1]' };
  await s.inject('collab-data-update', { collab: { payload: [missing] } });
  await s.advance(60);
  t.notOk(
    s.sent.some((m) => m.type === 'collab-missing-threads'),
    'still retrying',
  );
  await s.advance(150);
  t.same(s.sent.find((m) => m.type === 'collab-missing-threads')?.data, {
    payload: { isElementPresent: false },
    threadUids: ['th-gone'],
  });
});

t.test('a missing element that appears during the retries gets its pin', async (t) => {
  const s = start(t);
  const late = { ...THREAD, _id: 'th-late', elementXPath: '/html[1]/body[1]/aside[1]' };
  await s.inject('collab-data-update', { collab: { payload: [late] } });
  await s.advance(30);
  s.win.document.body.append(s.win.document.createElement('aside'));
  await s.advance(200);
  t.equal(s.$('.collab-pin')?.getAttribute('threaduid'), 'th-late');
  t.notOk(s.sent.some((m) => m.type === 'collab-missing-threads'));
  await s.inject('collab-threads-remove', { threadUids: ['th-late'] });
  await s.advance(20);
  t.equal(s.$$('.collab-pin').length, 0);
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
  await s.advance(60);
  pin.removeAttribute('field-path');
  s.button('Post').click();
  await s.advance(60);
  t.notOk(
    s.sent.some((m) => m.type === 'collab-create-thread'),
    'Invalid relative attribute, then Invalid field attributes: no thread',
  );
  t.ok(s.$('.collab-thread'), 'the popup stays with the text');
  pin.setAttribute('field-path', '/html[1]/body[1]/main[1]/p[1]');
  pin.setAttribute('relative', 'x: 0.25, y: 0.5');
  s.button('Post').click();
  await s.advance(80);
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
