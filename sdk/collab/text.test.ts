import { Window } from 'happy-dom';
import t from 'tap';
import {
  cleanText,
  displayName,
  elementAt,
  filterUsers,
  formatTime,
  fromStored,
  headerText,
  initials,
  LENGTH_ERROR,
  MENTION_ERROR,
  mentionQuery,
  pageRoute,
  parseRelative,
  relativeText,
  toStored,
  toUser,
  truncateName,
  validate,
  xpathOf,
} from './text.ts';

const win = new Window();
const parser = new win.DOMParser() as unknown as DOMParser;
t.teardown(() => win.happyDOM.close());

t.test('names, initials, truncation and headers follow spec 3 and 9', async (t) => {
  t.equal(displayName({ uid: 'u', email: 'a@x.io', firstName: 'Ada', lastName: 'Lovelace' }), 'Ada Lovelace');
  t.equal(displayName({ uid: 'u', email: 'a@x.io', lastName: 'Lovelace' }), 'Lovelace');
  t.equal(displayName({ uid: 'u', email: 'a@x.io' }), 'a@x.io');
  t.equal(initials('Ada King Lovelace'), 'AL');
  t.equal(initials('admin'), 'AD');
  t.equal(truncateName('12345678901234567890'), '12345678901234567890');
  t.equal(truncateName('123456789012345678901'), '123456789012345678…');
  t.equal(headerText(0), 'Add New Comment');
  t.equal(headerText(1), '1 Comment');
  t.equal(headerText(7), '7 Comments');
});

t.test('validation texts for the 500-character and 20-mention limits', async (t) => {
  t.equal(validate('x'.repeat(500), []), '');
  t.equal(validate('x'.repeat(501), []), LENGTH_ERROR);
  t.equal(LENGTH_ERROR, 'Limit exceeded. You can have a maximum length of 500 characters.');
  const many = Array.from({ length: 21 }, (_, i) => ({ uid: `u${i}`, display: `User ${i}` }));
  const text = many.map((m) => `@${m.display}`).join(' ');
  t.equal(validate(text, many), MENTION_ERROR);
  t.equal(MENTION_ERROR, 'Limit exceeded. You can tag a maximum of 20 users.');
  t.equal(validate(text, many.slice(0, 20)), '');
});

t.test('HTML is stripped, whitespace collapsed, mentions stored as placeholders', async (t) => {
  t.equal(cleanText('  <b>bold</b>\n\n  <img src=x onerror=alert(1)>text  ', parser), 'bold text');
  const mentions = [
    { uid: 'u1', display: 'Ada' },
    { uid: 'u2', display: 'Ada Lovelace' },
  ];
  const stored = toStored('Hi @Ada Lovelace and @Ada <i>now</i>', mentions, parser);
  t.same(stored, { message: 'Hi {{u2}} and {{u1}} now', toUsers: ['u2', 'u1'] });
  const users = new Map([['u2', { uid: 'u2', email: 'a@x.io', firstName: 'Ada', lastName: 'Lovelace' }]]);
  t.same(fromStored('Hi {{u2}} and {{zz}}', users), {
    text: 'Hi @Ada Lovelace and {{zz}}',
    mentions: [{ uid: 'u2', display: 'Ada Lovelace' }],
  });
});

t.test('mention query and filtering', async (t) => {
  t.same(mentionQuery('hello @ad', 9), { start: 6, query: 'ad' });
  t.same(mentionQuery('@', 1), { start: 0, query: '' });
  t.equal(mentionQuery('hello @ad x', 11), null);
  t.equal(mentionQuery('mail@x', 6), null);
  const users = [
    { uid: '1', email: 'a@x', firstName: 'Ada' },
    { uid: '2', email: 'b@x', firstName: 'Bob', lastName: 'ADAMS' },
    { uid: '3', email: 'c@x', firstName: 'Cy' },
  ];
  t.same(
    filterUsers(users, 'aD').map((u) => u.uid),
    ['1', '2'],
  );
});

t.test('xpath round trip, page route and time format', async (t) => {
  const doc = win.document as unknown as Document;
  doc.body.innerHTML = '<main><p>a</p><p>b<span>c</span></p></main>';
  const span = doc.querySelector('span') as Element;
  const path = xpathOf(span);
  t.equal(path, '/html[1]/body[1]/main[1]/p[2]/span[1]');
  t.equal(elementAt(doc, path), span);
  t.equal(elementAt(doc, '/html/body/main/p[2]'), span.parentElement);
  t.equal(elementAt(doc, '/html[1]/body[1]/main[1]/p[3]'), null);
  t.equal(pageRoute('/cs/kitchen/'), '/cs/kitchen');
  t.equal(pageRoute('/'), '/');
  t.equal(formatTime('nope'), '');
});

t.test("comment times read 'MMM DD, YYYY, hh:mm A' in local time, whatever the language", async (t) => {
  t.equal(formatTime(new Date(2026, 2, 4, 0, 7).toISOString()), 'Mar 04, 2026, 12:07 AM');
  t.equal(formatTime(new Date(2026, 11, 31, 13, 5).toISOString()), 'Dec 31, 2026, 01:05 PM');
  t.equal(formatTime(new Date(2026, 0, 9, 12, 0).toISOString()), 'Jan 09, 2026, 12:00 PM');
});

t.test("a pin's relative attribute is 'x: n, y: n' and reads back; anything else is refused", async (t) => {
  const text = relativeText({ x: 0.25, y: 1 });
  t.equal(text, 'x: 0.25, y: 1');
  t.same(parseRelative(text), { x: 0.25, y: 1 });
  t.same(parseRelative(relativeText({ x: 1e-7, y: 0 })), { x: 1e-7, y: 0 });
  for (const bad of [null, '', 'x: a, y: 1', 'x:0.5,y:0.5', '0.5, 0.5', 'x: 0.5'])
    t.equal(parseRelative(bad), null, String(bad));
});

t.test('users from the editor: keyed by uid (wire) or id (spec); without a key or an email, dropped', async (t) => {
  const rows: [string, unknown, unknown][] = [
    ['wire shape', { uid: 'u1', email: 'a@x.io', firstName: 'Ada' }, { uid: 'u1', email: 'a@x.io', firstName: 'Ada' }],
    ['spec shape', { id: 'u2', email: 'b@x.io', lastName: 'Byron' }, { uid: 'u2', email: 'b@x.io', lastName: 'Byron' }],
    ['uid wins over id', { uid: 'u3', id: 'other', email: 'c@x.io' }, { uid: 'u3', email: 'c@x.io' }],
    ['no key', { email: 'd@x.io' }, null],
    ['no email', { uid: 'u4' }, null],
    ['numeric id', { id: 5, email: 'e@x.io' }, null],
    ['not an object', 'u5', null],
    ['null', null, null],
  ];
  for (const [name, input, expected] of rows) t.same(toUser(input), expected, name);
});
