import t from 'tap';
import { operationAdmission, tokenBucket } from './socket.ts';

/** The pure rules of the socket budgets (decision 0142): a token bucket, and admission per event-loop turn. */

t.test('a token bucket gives its burst at once, then its rate', async (t) => {
  let now = 0;
  const take = tokenBucket(3, 2, () => now);
  t.same([take(), take(), take(), take()], [true, true, true, false], 'the burst, then none');
  now = 500;
  t.same([take(), take()], [true, false], 'one more after half a second at 2 a second');
  now = 60_000;
  t.same([take(), take(), take(), take()], [true, true, true, false], 'never more than the burst after a long pause');
});

t.test(
  'at most perTurn operations start in one turn; the next wait in order; past the queue they are refused',
  async (t) => {
    const admit = operationAdmission(2, 3);
    const started: string[] = [];
    const attempts = ['a', 'b', 'c', 'd', 'e', 'f'].map(async (name) => {
      const admitted = await admit();
      started.push(`${name}:${admitted}`);
    });
    // In this turn: a and b at once, c d e queued, f refused.
    await Promise.resolve();
    t.same(started.sort(), ['a:true', 'b:true', 'f:false'], 'two in this turn, the one past the queue refused');
    await new Promise((resolve) => setImmediate(resolve));
    t.same(started.slice(3), ['c:true', 'd:true'], 'the next two in the next turn, in order');
    await Promise.all(attempts);
    t.same(started.slice(5), ['e:true'], 'then the last');
  },
);
