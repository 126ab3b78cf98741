import t from 'tap';
import { queryNestingError } from './query-nesting.ts';

/** The nesting scan counts brackets of the query itself, never those inside strings or comments. */

t.test('nesting past the limit is an error naming where it happens', async (t) => {
  t.equal(queryNestingError('{ a { b { c } } }', 3), undefined, 'three levels within three');
  t.match(queryNestingError('{ a {\n  b { c } } }', 2), {
    message: 'Query nests more than 2 levels of brackets (line 2, column 5)',
    extensions: { code: 'QUERY_TOO_NESTED' },
  });
  t.ok(queryNestingError(`{ f(x: ${'['.repeat(3000)}1${']'.repeat(3000)}) }`), 'a 3000-deep literal');
});

t.test('brackets in strings, block strings and comments do not count', async (t) => {
  const deep = '['.repeat(50);
  t.equal(queryNestingError(`{ f(x: "${deep}\\"${deep}") }`, 4), undefined, 'a string with an escaped quote');
  t.equal(queryNestingError(`{ f(x: """${deep}\n\\"""${deep}""") }`, 4), undefined, 'a block string');
  t.equal(queryNestingError(`# ${deep}\n{ f }`, 4), undefined, 'a comment');
  t.ok(queryNestingError(`# comment\n{ f(x: "s") ${deep} }`, 4), 'counting resumes after each');
});

t.test("a comment ends at any of GraphQL's line terminators: \\n, \\r and \\r\\n", async (t) => {
  const deep = `{ f(x: ${'['.repeat(50)}1${']'.repeat(50)}) }`;
  for (const end of ['\n', '\r', '\r\n']) {
    t.match(
      queryNestingError(`# comment${end}${deep}`, 4),
      { extensions: { code: 'QUERY_TOO_NESTED' } },
      JSON.stringify(end),
    );
  }
  t.match(
    queryNestingError('#\r\n#\r{\r\n a\r{ b { c } } }', 2),
    {
      message: 'Query nests more than 2 levels of brackets (line 5, column 5)',
    },
    'lines are counted at each terminator, \\r\\n once',
  );
});
