import t from 'tap';
import { parseOperation } from './socket.ts';

/** Socket operations' documents (decision 0175): shared between operations of the same text, and bounded. */

t.test('operations of the same text share one document; the cache keeps only the recent ones', async (t) => {
  const live = 'subscription { productUpdated(ids: ["4711"], locale: "en-GB") { id version } }';
  const first = parseOperation(live);
  t.equal(parseOperation(live), first, 'the second operation holds the first one’s document');
  for (let i = 0; i < 64; i++) parseOperation(`{ a${i}: __typename }`);
  t.not(parseOperation(live), first, 'after 64 other documents it is parsed anew: the cache is bounded');
  const long = `{ ${'__typename '.repeat(200)}}`;
  t.not(parseOperation(long), parseOperation(long), 'a long text is not kept: the cache holds little whatever is sent');
  t.match(parseOperation('{'), { message: /Syntax Error/ }, 'a syntax error is still an error, not cached');
});
