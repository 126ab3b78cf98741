import t from 'tap';
import { blocksKey, pastedText } from './keyboard.ts';

const press = (key: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...mods,
});

t.test('a number field takes digits, minus, dot and e/E only where they still make a number', async (t) => {
  t.notOk(blocksKey('number', press('7'), '12'));
  t.notOk(blocksKey('number', press('-'), ''), 'a leading minus');
  t.ok(blocksKey('number', press('-'), '12'), 'a minus after digits');
  t.notOk(blocksKey('number', press('.'), '12'));
  t.ok(blocksKey('number', press('.'), '1.2'), 'a second dot');
  t.notOk(blocksKey('number', press('e'), '12'));
  t.notOk(blocksKey('number', press('E'), '1.5'));
  t.ok(blocksKey('number', press('e'), '1e5'), 'a second exponent');
  t.notOk(blocksKey('number', press('-'), '1e'), 'a negative exponent');
  t.ok(blocksKey('number', press('a'), '12'), 'a letter');
  t.ok(blocksKey('number', press(' '), '12'), 'a space');
  t.notOk(blocksKey('number', press('-'), '12', 0, 0), 'a minus typed at the start');
  t.notOk(blocksKey('number', press('3'), '1x2', 1, 2), 'a digit replacing the selection');
});

t.test('control keys and shortcuts always reach a number field', async (t) => {
  const keys = 'Backspace Tab Enter End Home ArrowLeft ArrowRight ArrowUp ArrowDown Delete';
  for (const key of keys.split(' ')) t.notOk(blocksKey('number', press(key), '12'), key);
  t.notOk(blocksKey('number', press('a', { ctrlKey: true }), '12'), 'ctrl+a');
  t.notOk(blocksKey('number', press('v', { metaKey: true }), '12'), 'meta+v');
  t.notOk(blocksKey('number', press('x', { altKey: true }), '12'), 'alt+x');
});

t.test('a single-line field blocks Enter and nothing else; multiline takes Enter', async (t) => {
  t.ok(blocksKey('singleline', press('Enter'), 'Title'));
  t.notOk(blocksKey('singleline', press('a'), 'Title'));
  t.notOk(blocksKey('multiline', press('Enter'), 'Text'));
});

t.test('a paste keeps its lines in a multiline field and becomes one line elsewhere', async (t) => {
  t.equal(
    pastedText('multiline', 'Quiet\r\nwash\rcycle\nnow'),
    'Quiet\nwash\ncycle\nnow',
    'Windows and old Mac breaks',
  );
  t.equal(pastedText('singleline', 'Quiet \r\n\r\n wash\ncycle'), 'Quiet wash cycle');
  t.equal(pastedText('number', '7\n79'), '7 79', 'a number field too');
});
