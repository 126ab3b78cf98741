import t from 'tap';
import { LEDGER_WINDOW_SECONDS, TimeLedger } from './time-ledger.ts';

const WINDOW_MS = LEDGER_WINDOW_SECONDS * 1_000;

t.test("an address's bodies add up across its connections, closed ones included, over the window", async (t) => {
  const ledger = new TimeLedger(10);
  // Nine bodies of 0.9 s, each on a connection of its own, one a second.
  for (let k = 0; k < 9; k++) ledger.add('192.0.2.1', 900, 1_000 * (k + 1));
  t.equal(ledger.within('192.0.2.1', 9_500), 8_100);
  t.equal(ledger.within('192.0.2.2', 9_500), 0, 'another address has spent nothing');
});

t.test("an address's history is forgotten once its bodies have left the window", async (t) => {
  const ledger = new TimeLedger(10);
  ledger.add('192.0.2.1', 900, 1_000);
  ledger.add('192.0.2.1', 900, 2_000);
  t.equal(ledger.within('192.0.2.1', 1_000 + WINDOW_MS), 900, 'the first body has left, the second not');
  t.equal(ledger.within('192.0.2.1', 2_000 + WINDOW_MS), 0, 'both have left');
  // Counting another address's body lets go of the one whose bodies have all left.
  ledger.add('192.0.2.2', 10, 2_000 + WINDOW_MS);
  t.equal(ledger.size, 1, 'only the address counted within the window is remembered');
});

t.test('at most its bound of addresses: the one whose latest body ended longest ago is forgotten first', async (t) => {
  const ledger = new TimeLedger(100);
  ledger.add('198.51.100.1', 9_000, 1_000);
  // 9,000 fresh addresses, one small body each, within the same second.
  for (let k = 0; k < 9_000; k++) ledger.add(`10.${k >> 8}.${k & 255}.1`, 5, 1_000);
  // Renewed since: now the latest counted.
  ledger.add('198.51.100.1', 900, 1_500);
  t.equal(ledger.size, 100, 'never more than the bound');
  t.equal(ledger.within('10.0.0.1', 1_500), 0, 'the first fresh addresses are forgotten');
  t.equal(ledger.within('10.35.39.1', 1_500), 5, 'the latest are remembered');
  t.equal(
    ledger.within('198.51.100.1', 1_500),
    900,
    'an address that keeps sending bodies stays; what it spent before it was pushed out is lost',
  );
});
