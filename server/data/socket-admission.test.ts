import t from 'tap';
import { addressGroup } from '../http/client-address.ts';
import {
  addressSubscriptions,
  operationAdmission,
  type SocketStanding,
  socketPlaces,
  tokenBucket,
} from './socket-admission.ts';

/**
 * The pure rules of the socket budgets (decisions 0142, 0174): a token bucket, fair admission per
 * event-loop turn, and the subscriptions one address may hold.
 */

t.test('a token bucket gives its burst at once, then its rate', async (t) => {
  let now = 0;
  const take = tokenBucket(3, 2, () => now);
  t.same([take(), take(), take(), take()], [true, true, true, false], 'the burst, then none');
  now = 500;
  t.same([take(), take()], [true, false], 'one more after half a second at 2 a second');
  now = 60_000;
  t.same([take(), take(), take(), take()], [true, true, true, false], 'never more than the burst after a long pause');
});

/**
 * Drives an admission with a hand-turned event loop: `arrivals` (address letter, then its count:
 * `a1`) all arrive in one turn; the answer is what started at once, each later turn's starts, and
 * the refusals in the order they were made.
 */
async function drive(perTurn: number, maxWaiting: number, arrivals: string[]) {
  let next: (() => void) | undefined;
  // A clock that stands still: the arrivals of one turn must never straddle a second of the
  // admission's per-second counts, whatever the machine's load.
  const admit = operationAdmission(
    perTurn,
    maxWaiting,
    (turn) => {
      next = turn;
    },
    () => 0,
  );
  const now: string[] = [];
  const refused: string[] = [];
  let current = now;
  for (const name of arrivals) {
    const answer = admit(name.slice(0, 1));
    if (answer === true) now.push(name);
    else if (answer === false) refused.push(name);
    else void answer.then((ok) => (ok ? current : refused).push(name));
  }
  // Refusals of operations already waiting are made in this turn too.
  await new Promise((resolve) => setImmediate(resolve));
  const turns: string[][] = [];
  while (next) {
    const turn = next;
    next = undefined;
    current = [];
    turn();
    await new Promise((resolve) => setImmediate(resolve));
    if (current.length > 0) turns.push(current);
  }
  return { now, turns, refused };
}

const cases: {
  rule: string;
  perTurn: number;
  maxWaiting: number;
  arrivals: string[];
  now: string[];
  turns: string[][];
  refused: string[];
}[] = [
  {
    rule: 'at most perTurn start in one turn; the others wait for the next turns, in order',
    perTurn: 2,
    maxWaiting: 10,
    arrivals: ['a1', 'a2', 'a3', 'a4', 'a5'],
    now: ['a1', 'a2'],
    turns: [['a3', 'a4'], ['a5']],
    refused: [],
  },
  {
    rule: 'the waiting addresses take turns: a light one is not served after a heavy one’s whole line',
    perTurn: 2,
    maxWaiting: 10,
    arrivals: ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'b1', 'c1', 'c2'],
    now: ['a1', 'a2'],
    turns: [['a3', 'b1'], ['c1', 'a4'], ['c2', 'a5'], ['a6']],
    refused: [],
  },
  {
    rule: 'with the line full, an operation from the address with the most waiting is refused',
    perTurn: 1,
    maxWaiting: 3,
    arrivals: ['a1', 'a2', 'a3', 'a4', 'a5'],
    now: ['a1'],
    turns: [['a2'], ['a3'], ['a4']],
    refused: ['a5'],
  },
  {
    rule: 'with the line full, a light address is admitted and the heaviest gives up its newest',
    perTurn: 1,
    maxWaiting: 3,
    arrivals: ['a1', 'a2', 'a3', 'a4', 'b1', 'c1'],
    now: ['a1'],
    turns: [['a2'], ['b1'], ['c1']],
    refused: ['a4', 'a3'],
  },
  {
    rule: 'a tie with the heaviest refuses the one arriving: what waits keeps its place',
    perTurn: 1,
    maxWaiting: 2,
    arrivals: ['x1', 'a1', 'b1', 'c1'],
    now: ['x1'],
    turns: [['a1'], ['b1']],
    refused: ['c1'],
  },
];

for (const c of cases) {
  t.test(c.rule, async (t) => {
    const { now, turns, refused } = await drive(c.perTurn, c.maxWaiting, c.arrivals);
    t.same(now, c.now, 'started at once');
    t.same(turns, c.turns, 'started in the following turns');
    t.same(refused, c.refused, 'refused');
  });
}

t.test('an address holds at most its share of subscriptions; ended ones no longer count', async (t) => {
  const held = addressSubscriptions(3);
  const one = { subscriptions: {} as Record<string, unknown> };
  const two = { subscriptions: {} as Record<string, unknown> };
  const open = (socket: typeof one, id: string) => {
    socket.subscriptions[id] = null;
    return held.take('a', socket, id);
  };
  t.same(
    [open(one, '1'), open(one, '2'), open(two, '1'), open(two, '2')],
    [true, true, true, false],
    'three over both sockets',
  );
  t.ok(held.take('b', two, '3'), 'another address has its own share');
  delete one.subscriptions['1'];
  t.ok(open(two, '4'), 'one ended: room for one more');
  t.notOk(open(one, '5'), 'and no more');
  one.subscriptions = {};
  t.ok(open(two, '6'), 'a closed socket’s subscriptions end with it');
  held.forget('a');
  t.same([open(one, '7'), open(one, '8'), open(one, '9')], [true, true, true], 'an address forgotten starts again');
});

/**
 * Sockets named address + number, taken in order at 0 ms; `standing` gives those not live. Then
 * `arrivals` come one by one at the cap, at 5 s unless `at` says otherwise: the socket each one
 * displaced, or 'refused'. Chance draws among the live: `picks` are its draws in turn (0, the
 * oldest of those drawn from, once they run out).
 */
const placeCases: {
  rule: string;
  total: number;
  held: string[];
  standing?: Record<string, SocketStanding>;
  arrivals: string[];
  at?: Record<string, number>;
  picks?: number[];
  outcome: string[];
}[] = [
  {
    rule: 'with every address holding one, a newcomer gets in: one of them gives way, as chance draws',
    total: 3,
    held: ['a1', 'b1', 'c1'],
    arrivals: ['v1', 'w1'],
    picks: [0.5, 0.99],
    outcome: ['b1', 'v1'],
  },
  {
    rule: 'a socket still connecting gives way first, the oldest of them',
    total: 4,
    held: ['a1', 'b1', 'c1', 'd1'],
    standing: { c1: 'connecting', d1: 'connecting', a1: 'idle' },
    arrivals: ['v1', 'w1'],
    outcome: ['c1', 'd1'],
  },
  {
    rule: 'then one holding no subscription, whatever its address holds',
    total: 4,
    held: ['a1', 'a2', 'b1', 'c1'],
    standing: { c1: 'idle' },
    arrivals: ['v1'],
    outcome: ['c1'],
  },
  {
    rule: 'then a socket of an address holding the most, whatever chance draws',
    total: 4,
    held: ['a1', 'b1', 'b2', 'c1'],
    arrivals: ['v1'],
    picks: [0.99],
    outcome: ['b2'],
  },
  {
    rule: 'an address that would hold more than the heaviest is refused',
    total: 3,
    held: ['a1', 'b1', 'c1'],
    standing: { a1: 'connecting' },
    arrivals: ['b2'],
    outcome: ['refused'],
  },
  {
    rule: 'an address holding some that would tie with the heaviest takes the place of one not live',
    total: 3,
    held: ['a1', 'a2', 'b1'],
    standing: { a1: 'idle' },
    arrivals: ['b2'],
    outcome: ['a1'],
  },
  {
    rule: 'but a socket holding a subscription gives way only to an address holding none',
    total: 3,
    held: ['a1', 'a2', 'b1'],
    arrivals: ['b2', 'c1'],
    outcome: ['refused', 'a1'],
  },
  {
    rule: 'a visitor that arrived last is not the one to go: chance draws among the live, whatever their age',
    total: 3,
    held: ['a1', 'b1', 'v1'],
    arrivals: ['c1', 'd1', 'e1'],
    picks: [0, 0.5, 0.5],
    outcome: ['a1', 'v1', 'c1'],
  },
  {
    rule: 'a live socket drawn past its first second earns a return: its address comes straight back and takes, drawn, the place of one held since before; the one displaced so earns none',
    total: 3,
    held: ['a1', 'b1', 'v1'],
    arrivals: ['c1', 'v2', 'b2'],
    picks: [0.99, 0.5],
    outcome: ['v1', 'b1', 'refused'],
  },
  {
    rule: 'a visitor back on its return does not give way while it connects in its first second; past it, it does',
    total: 3,
    held: ['a1', 'b1', 'v1'],
    standing: { v2: 'connecting' },
    arrivals: ['c1', 'v2', 'd1', 'e1'],
    at: { c1: 5_000, v2: 6_000, d1: 6_500, e1: 7_000 },
    picks: [0.99, 0, 0],
    outcome: ['v1', 'a1', 'b1', 'v2'],
  },
  {
    rule: 'a live socket drawn in its first second earns none: a socket that only just came holds no claim',
    total: 3,
    held: ['a1', 'b1', 'c1'],
    arrivals: ['v1', 'w1', 'v2'],
    picks: [0, 0.99],
    outcome: ['a1', 'v1', 'refused'],
  },
  {
    rule: 'a return never takes the place of a socket that came after it was earned: the newcomer that displaced a holder keeps its place',
    total: 3,
    held: ['a1', 'b1', 'c1'],
    arrivals: ['v1', 'a2', 'c2'],
    picks: [0, 0.99],
    outcome: ['a1', 'c1', 'refused'],
  },
  {
    rule: 'an address displaced without a return is not barred, but displaces no live socket, nor one in its first second of an address displaced less often',
    total: 3,
    held: ['a1', 'b1', 'v1'],
    standing: { b1: 'idle', d1: 'connecting' },
    arrivals: ['c1', 'b2', 'd1', 'b3', 'e1'],
    at: { b3: 5_500, e1: 5_500 },
    outcome: ['b1', 'refused', 'a1', 'refused', 'd1'],
  },
  {
    rule: 'a socket still connecting in its first second gives way after older ones, before a live one',
    total: 3,
    held: ['a1', 'b1', 'c1'],
    standing: { a1: 'connecting', v1: 'connecting', w1: 'connecting' },
    arrivals: ['v1', 'w1'],
    outcome: ['a1', 'v1'],
  },
  {
    rule: 'sockets that never complete connection_init only displace each other, never a live visitor',
    total: 3,
    held: ['a1', 'b1', 'c1'],
    standing: Object.fromEntries(
      ['a1', 'b1', 'c1', 'a2', 'd1', 'e1', 'f1', 'g1', 'h1'].map((name) => [name, 'connecting']),
    ),
    arrivals: ['v1', 'a2', 'd1', 'e1', 'f1', 'g1', 'h1'],
    at: { f1: 6_500, g1: 6_500, h1: 6_500 },
    outcome: ['a1', 'b1', 'c1', 'a2', 'd1', 'e1', 'f1'],
  },
];

for (const c of placeCases) {
  t.test(c.rule, async (t) => {
    let clock = 0;
    const picks = [...(c.picks ?? [])];
    const places = socketPlaces<string>(c.total, 10, { now: () => clock, random: () => picks.shift() ?? 0 });
    // Live unless named otherwise: a page subscribes as soon as its socket is acknowledged.
    const standing = (name: string) => () => c.standing?.[name] ?? 'live';
    let gaveWay: string[] = [];
    const take = (name: string) => places.take(name.slice(0, 1), name, () => gaveWay.push(name), standing(name));
    t.ok(
      c.held.every((name) => take(name)),
      'places taken below the cap',
    );
    const outcome = c.arrivals.map((name) => {
      clock = c.at?.[name] ?? 5_000;
      gaveWay = [];
      if (!take(name)) return 'refused';
      t.equal(gaveWay.length, 1, `${name}: exactly one gave way`);
      return gaveWay[0] ?? 'nobody';
    });
    t.same(outcome, c.outcome, 'who gave way to each arrival');
    t.equal(places.open(), c.total, 'never more than the cap');
  });
}

t.test(
  'an address displaced twice within a minute is refused at the cap for 10 s after the latest; once, it is not',
  async (t) => {
    let clock = 0;
    const places = socketPlaces<string>(2, 10, { now: () => clock });
    const gaveWay: string[] = [];
    // Sockets named i… hold no subscription: they give way to anyone once past their first second.
    const take = (name: string) =>
      places.take(
        name.slice(1, 2),
        name,
        () => gaveWay.push(name),
        () => (name.startsWith('i') ? 'idle' : 'live'),
      );
    take('ia1');
    take('ib1');
    clock = 2_000;
    t.ok(take('vv1'), 'a visitor gets in');
    t.ok(take('ia2'), 'the address that gave way once comes straight back');
    t.same(gaveWay, ['ia1', 'ib1']);
    clock = 3_500;
    t.ok(take('ic1'), 'a newcomer');
    t.same(gaveWay, ['ia1', 'ib1', 'ia2'], 'a is displaced a second time');
    clock = 13_499;
    t.notOk(take('ia3'), 'and is refused within 10 s of it');
    clock = 13_500;
    t.ok(take('ia3'), 'and gets in 10 s on');
    t.same(gaveWay, ['ia1', 'ib1', 'ia2', 'ic1']);
    t.equal(places.of('v'), 1, 'the visitor still holds its place');
  },
);

t.test(
  'a return is spent on the place it takes; an address holding one is not barred, one that spent it is',
  async (t) => {
    let clock = 0;
    const picks = [0.99, 0, 0.99, 0];
    const places = socketPlaces<string>(3, 10, { now: () => clock, random: () => picks.shift() ?? 0 });
    const gaveWay: string[] = [];
    const release = new Map<string, () => void>();
    const take = (name: string) => {
      const done = places.take(
        name.slice(0, 1),
        name,
        () => gaveWay.push(name),
        () => 'live',
      );
      if (done) release.set(name, done);
      return Boolean(done);
    };
    for (const name of ['a1', 'b1', 'v1']) take(name);
    clock = 5_000;
    t.ok(take('c1'), 'a fresh address at the cap');
    clock = 6_000;
    t.ok(take('v2'), 'the visitor it displaced comes back');
    t.same(gaveWay, ['v1', 'a1'], 'in the place of one held before it was displaced');
    clock = 7_000;
    t.ok(take('d1') && take('v3'), 'displaced a second time, by a fresh draw: not barred, it comes back again');
    t.same(gaveWay, ['v1', 'a1', 'v2', 'b1'], 'not in the place of d1, which came at that moment');
    release.get('v3')?.();
    t.ok(take('e1'), 'below the cap, a newcomer takes the free place');
    clock = 8_000;
    t.notOk(take('v4'), 'its return spent, the visitor displaced twice is barred');
    clock = 17_000;
    t.notOk(take('v4'), 'and after the bar, with no return, it displaces no live socket');
    t.same(gaveWay, ['v1', 'a1', 'v2', 'b1']);
  },
);

t.test(
  'live sockets past their first second give way to fresh addresses at most so many a minute; past that, a fresh address draws only among those in their first second, or is refused',
  async (t) => {
    let clock = 0;
    const places = socketPlaces<string>(4, 10, { now: () => clock, random: () => 0, displacementsPerMinute: 2 });
    const gaveWay: string[] = [];
    const take = (name: string) =>
      Boolean(
        places.take(
          name.slice(0, 1),
          name,
          () => gaveWay.push(name),
          () => 'live',
        ),
      );
    for (const name of ['a1', 'b1', 'c1', 'v1']) take(name);
    clock = 5_000;
    t.ok(take('d1') && take('e1'), 'two fresh addresses at the cap take the places of two held');
    t.same(gaveWay, ['a1', 'b1']);
    t.ok(take('f1'), 'the budget spent, a third one takes the place of one that only just came');
    t.same(gaveWay, ['a1', 'b1', 'd1']);
    clock = 6_000;
    t.ok(take('a2'), 'a return is not counted against the budget: a1 comes back');
    t.same(gaveWay, ['a1', 'b1', 'd1', 'c1']);
    clock = 7_000;
    t.notOk(take('g1'), 'with none in its first second, a fresh address is refused: the visitor keeps its place');
    clock = 35_000;
    t.ok(take('h1'), 'half a minute on, the budget gives one more');
    t.same(gaveWay, ['a1', 'b1', 'd1', 'c1', 'v1']);
    clock = 36_000;
    t.ok(take('v2'), 'the visitor comes back on its return');
    t.same(gaveWay, ['a1', 'b1', 'd1', 'c1', 'v1', 'e1']);
    clock = 36_500;
    t.notOk(
      take('i1'),
      'and only one: the visitor, back within the second, is not drawn in the place of a settled one',
    );
    t.equal(places.of('v'), 1, 'the visitor holds its place');
  },
);

t.test(
  'among the live, each is as likely to give way: draws spread evenly over [0, 1) fall on each once',
  async (t) => {
    for (const total of [1, 3, 8]) {
      const held = Array.from({ length: total }, (_, i) => `h${i}`);
      const drawn = held.map((_, i) => {
        const places = socketPlaces<string>(total, 10, { random: () => (i + 0.5) / total });
        let gone = '';
        for (const name of [...held, 'newcomer'])
          places.take(
            name,
            name,
            () => (gone = name),
            () => 'live',
          );
        return gone;
      });
      t.same(drawn.toSorted(), held, `${total} holders: each drawn once`);
    }
  },
);

t.test('when an address’s own socket gives way to its newcomer, the address is counted right', async (t) => {
  let clock = 0;
  const places = socketPlaces<string>(3, 10, { now: () => clock });
  const take = (name: string) =>
    places.take(
      name.slice(0, 1),
      name,
      () => {},
      () => (name === 'a1' ? 'idle' : 'live'),
    );
  take('a1');
  take('b1');
  take('b2');
  clock = 5_000;
  t.ok(take('a2'), 'a newcomer of a takes the place of a’s idle socket');
  t.equal(places.of('a'), 1, 'a holds one');
  t.equal(places.open(), 3);
});

t.test('an IPv6 address counts by its /64, an IPv4-mapped one as the IPv4 address', async (t) => {
  const groups: [string, string][] = [
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:db8:1:3::1', '2001:db8:1:3::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::ffff:10.0.0.1', '10.0.0.1'],
    ['10.0.0.1', '10.0.0.1'],
    ['', ''],
  ];
  for (const [address, group] of groups) t.equal(addressGroup(address), group, address || 'no address');
  const places = socketPlaces<string>(10, 2);
  const take = (address: string) =>
    places.take(
      address,
      address,
      () => {},
      () => 'live',
    );
  t.ok(take('2001:db8::1') && take('2001:db8::2'), 'two from one /64');
  t.notOk(take('2001:db8::3'), 'a third address of that /64 is past the per-address cap');
  t.ok(take('2001:db8:0:1::1'), 'the next /64 has its own share');
  t.equal(places.of('2001:db8::ffff'), 2, 'counted by prefix');
});

t.test('a socket that gave way or closed releases its place once; its address is counted down', async (t) => {
  const places = socketPlaces<string>(3, 2, { random: () => 0.99 });
  const gaveWay: string[] = [];
  const take = (name: string) =>
    places.take(
      name.slice(0, 1),
      name,
      () => gaveWay.push(name),
      () => 'live',
    );
  const releases = ['a1', 'a2', 'b1'].map(take);
  t.notOk(take('a3'), 'an address holds at most its share');
  t.ok(take('c1'), 'at the cap a newcomer gets in');
  t.same(gaveWay, ['a2']);
  releases[1]?.();
  t.equal(places.open(), 3, 'a socket that gave way releases nothing twice');
  releases[2]?.();
  t.equal(places.open(), 2, 'a socket closing frees its place');
  t.equal(places.of('b'), 0, 'and its address’s');
  t.ok(take('b2'), 'so one more gets in without anybody giving way');
  t.same(gaveWay, ['a2']);
});

t.test(
  'with the line full, the address that sent the most over the last second gives way, not the one waiting most',
  async (t) => {
    let clock = 0;
    let next: (() => void) | undefined;
    const admit = operationAdmission(
      2,
      3,
      (turn) => {
        next = turn;
      },
      () => clock,
    );
    const outcome: Record<string, string> = {};
    const send = (name: string) => {
      const answer = admit(name.slice(0, 1));
      if (typeof answer === 'boolean') outcome[name] = answer ? 'started' : 'refused';
      else void answer.then((ok) => (outcome[name] = ok ? 'started' : 'refused'));
    };
    // A flood's address: five in this second, of which only the last waits.
    for (const name of ['a1', 'a2', 'a3']) send(name);
    clock = 300;
    next?.();
    // a3 and a4 use this turn: the next ones wait.
    for (const name of ['a4', 'a5', 'v1', 'v2']) send(name);
    // The line is full; a visitor's burst holds the most waiting, the flood sent the most.
    clock = 400;
    send('v3');
    await new Promise((resolve) => setImmediate(resolve));
    t.equal(outcome.v3, undefined, "the visitor's third waits");
    t.equal(outcome.a4, 'started');
    t.equal(outcome.a5, 'refused', 'the flood’s newest gave way');
    // The next turn serves the visitor's that wait.
    clock = 500;
    next?.();
    await new Promise((resolve) => setImmediate(resolve));
    t.same([outcome.v1, outcome.v2], ['started', 'started']);
  },
);
