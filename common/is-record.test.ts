import t from 'tap';
import { isRecord } from './is-record.ts';

t.test('only plain objects are records', async (t) => {
  const rows: [string, unknown, boolean][] = [
    ['an object', { a: 1 }, true],
    ['an empty object', {}, true],
    ['an object without a prototype', Object.create(null), true],
    ['an array', [1], false],
    ['null', null, false],
    ['undefined', undefined, false],
    ['a string', '{}', false],
    ['a number', 1, false],
  ];
  for (const [name, value, expected] of rows) t.equal(isRecord(value), expected, name);
});
