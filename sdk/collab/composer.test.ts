import t from 'tap';
import { h1, ME, start } from './test-collab.ts';
import { LENGTH_ERROR, MENTION_ERROR } from './text.ts';

/** The composer: the first post creates the thread, limits block submit, the mention list. */

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
  await s.advance(80);
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
