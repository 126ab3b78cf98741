import t from 'tap';
import { jitteredTtl } from './jitter.ts';

t.test('a lifetime is spread ±10 % around the configured one', async (t) => {
  const rows: [number, number, number][] = [
    [60_000, 0, 54_000],
    [60_000, 0.5, 60_000],
    [60_000, 0.999_999, 66_000],
    [2_000, 0.25, 1_900],
    [0, 0.7, 0],
  ];
  for (const [ttl, random, expected] of rows)
    t.equal(
      jitteredTtl(ttl, () => random),
      expected,
      `${ttl} ms at ${random}`,
    );
});
