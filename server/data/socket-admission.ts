import { addressGroup } from '../http/client-address.ts';

/**
 * Who among the sockets' clients is served, and how much of the server one address may hold: fair
 * admission of operations per event-loop turn (decisions 0142, 0174) and each address's share of the
 * subscriptions (decision 0175). Pure rules, so a test can turn the loop by hand.
 */

/**
 * Admission of socket operations, process-wide: at most `perTurn` start in one turn of the event
 * loop, whatever the number of sockets. The next ones wait in a line per client address, and the
 * addresses take turns: each turn starts one operation of each waiting address in rotation, so a
 * light address waits a few turns behind a flood, not behind the flood's whole line. With
 * `maxWaiting` waiting, the operation refused (false) is one from the waiting address that sent the
 * most over about the last second (its share, not what it holds at this instant: a visitor's burst
 * of a dozen is more than each of a flood's many light addresses holds at once, but far less than
 * each sends in a second): the one arriving if its address sent at least as many, else the newest
 * of the heaviest address's, and the one arriving takes its place.
 */
export function operationAdmission(
  perTurn: number,
  maxWaiting: number,
  schedule: (turn: () => void) => void = setImmediate,
  now: () => number = () => performance.now(),
): (address: string) => boolean | Promise<boolean> {
  const sent = recentCounts(now);
  let used = 0;
  let scheduled = false;
  let waiting = 0;
  /** Each address's line, in the order the addresses are served next. */
  const lines = new Map<string, ((admitted: boolean) => void)[]>();
  const nextTurn = () => {
    scheduled = false;
    used = 0;
    while (used < perTurn && waiting > 0) {
      for (const address of [...lines.keys()]) {
        if (used >= perTurn) break;
        const line = lines.get(address) ?? [];
        const start = line.shift();
        // Served: to the back of the rotation, or out of it with its line empty.
        lines.delete(address);
        if (line.length > 0) lines.set(address, line);
        if (!start) continue;
        used++;
        waiting--;
        start(true);
      }
    }
    later();
  };
  const later = () => {
    if (scheduled || (used === 0 && waiting === 0)) return;
    scheduled = true;
    schedule(nextTurn);
  };
  /** The line of the waiting address that sent the most lately, and how many it sent. */
  const heaviest = () => {
    let most: ((admitted: boolean) => void)[] = [];
    let mostSent = 0;
    for (const [address, line] of lines) {
      const count = sent.of(address);
      if (line.length > 0 && count > mostSent) [most, mostSent] = [line, count];
    }
    return { line: most, sent: mostSent };
  };
  return (address) => {
    sent.add(address);
    if (used < perTurn && waiting === 0) {
      used++;
      later();
      return true;
    }
    const own = lines.get(address) ?? [];
    if (waiting >= maxWaiting) {
      const most = heaviest();
      if (sent.of(address) >= most.sent) return false;
      most.line.pop()?.(false);
      waiting--;
    }
    lines.set(address, own);
    waiting++;
    return new Promise((resolve) => own.push(resolve));
  };
}

/**
 * Operations each address sent over about the last second: this second's count plus the last
 * one's, weighed by how much of it is still within a second. Two maps, so only the addresses
 * heard from in the last two seconds are kept.
 */
function recentCounts(now: () => number) {
  let second = Math.floor(now() / 1000);
  let current = new Map<string, number>();
  let previous = new Map<string, number>();
  const roll = () => {
    const at = Math.floor(now() / 1000);
    if (at === second) return;
    previous = at === second + 1 ? current : new Map();
    current = new Map();
    second = at;
  };
  return {
    add(address: string) {
      roll();
      current.set(address, (current.get(address) ?? 0) + 1);
    },
    of(address: string): number {
      roll();
      const left = 1 - (now() % 1000) / 1000;
      return (current.get(address) ?? 0) + (previous.get(address) ?? 0) * left;
    },
  };
}

/**
 * A token bucket: true for `burst` calls at once, then for `perSecond` a second. The message
 * budgets of a socket and of an address; past either, the socket is closed and what it sent is
 * dropped unparsed.
 */
export function tokenBucket(burst: number, perSecond: number, now = () => performance.now()): () => boolean {
  let tokens = burst;
  let last = now();
  return () => {
    const at = now();
    tokens = Math.min(burst, tokens + ((at - last) / 1000) * perSecond);
    last = at;
    if (tokens < 1) return false;
    tokens--;
    return true;
  };
}

/** What the count of an address's subscriptions reads of a socket: graphql-ws's operations on it. */
export interface SubscriptionOwner {
  subscriptions: Record<string, unknown>;
}

/**
 * Subscriptions each client address holds over all of its sockets, at most `perAddress`. Counted
 * from what graphql-ws holds: a subscription counts while its id is among its socket's operations,
 * so one that ended in any way (completed, failed, its socket closed) stops counting without a hook
 * that could be missed.
 */
export function addressSubscriptions(perAddress: number) {
  const held = new Map<string, Map<SubscriptionOwner, Set<string>>>();
  return {
    /** Counts subscription `id` of `owner` against `address`; false, uncounted, when it holds its share. */
    take(address: string, owner: SubscriptionOwner, id: string): boolean {
      const owners = held.get(address) ?? new Map<SubscriptionOwner, Set<string>>();
      held.set(address, owners);
      let count = 0;
      for (const [socket, ids] of owners) {
        for (const known of ids) if (!(known in socket.subscriptions)) ids.delete(known);
        if (ids.size === 0) owners.delete(socket);
        count += ids.size;
      }
      if (count >= perAddress) return false;
      const ids = owners.get(owner) ?? new Set<string>();
      owners.set(owner, ids.add(id));
      return true;
    },
    /** Drops an address whose sockets have all closed. */
    forget(address: string) {
      held.delete(address);
    },
  };
}

/**
 * How far a socket is from being of use to its client, in the order sockets give way at the cap:
 * one that has not completed `connection_init` yet, one holding no subscription, one holding some.
 */
export type SocketStanding = 'connecting' | 'idle' | 'live';

/**
 * The places for open sockets: at most `total` over all addresses and `perAddress` for one, an
 * address counted by its group (`addressGroup`). At the total, a newcomer whose address would hold
 * no more than the address holding the most takes a place (decision 0178): refusing would let one
 * socket from each of a few thousand addresses keep every visitor's live price out.
 *
 * Who gives way: the oldest socket still connecting, else the oldest holding no subscription (either
 * once past `graceMs`: a page's client sends connection_init and subscribes at once), else the
 * oldest of those in their first `graceMs` whose address was displaced no less often than the
 * newcomer's over the last `memoryMs` (decision 0192) and held no return when it came (decision
 * 0224), else one holding a subscription, of an address holding the most, drawn by `random`
 * (decision 0187), and only to a newcomer whose address holds none and either was not displaced
 * within `memoryMs` (any of them) or holds a return (one that held its place since before that
 * return was earned). A socket past its first `graceMs` that
 * gives way to such a draw of a newcomer not displaced earns its address one return; giving way in
 * any other way (to a return among others) earns none, so returns never chain. Drawn, not the
 * newest or the oldest: no order of arrival can be aimed at. An address displaced twice within
 * `memoryMs` and holding no return is refused at the cap for `barredMs` after its latest. A
 * newcomer not displaced draws a live socket past its first `graceMs` only within
 * `displacementsPerMinute` (decision 0211), else only one in its first `graceMs` of an address not
 * displaced, else it is refused: however many fresh addresses come, a visitor is drawn seldom.
 */
export function socketPlaces<S>(
  total: number,
  perAddress: number,
  {
    barredMs = 10_000,
    graceMs = 1_000,
    memoryMs = 60_000,
    displacementsPerMinute = Math.max(2, Math.ceil(total / 16)),
    now = () => performance.now(),
    random = Math.random,
  } = {},
) {
  /** Live sockets past their first second a fresh address may displace: a minute's worth at once. */
  const displacements = tokenBucket(displacementsPerMinute, displacementsPerMinute / 60, now);
  interface Place {
    group: string;
    giveWay: () => void;
    standing: () => SocketStanding;
    since: number;
    /** Taken by an address holding a return: a visitor back from a draw, still connecting. */
    returning: boolean;
  }
  /**
   * How often a group gave way within `memoryMs` of the latest, and when; `returnBefore`, while it
   * holds a return, the moment it was earned: it may displace a live socket held since before.
   */
  interface Displaced {
    times: number;
    at: number;
    returnBefore?: number;
  }
  /** Every socket holding a place, oldest first. */
  const places = new Map<S, Place>();
  /** How many sockets each address group holds. */
  const counts = new Map<string, number>();
  /** Each group displaced within `memoryMs` of its latest; latest last. */
  const displaced = new Map<string, Displaced>();
  const displacedOf = (group: string, at: number) => {
    for (const [other, { at: when }] of displaced) {
      if (at - when < memoryMs) break;
      displaced.delete(other);
    }
    return displaced.get(group);
  };
  const release = (socket: S) => {
    const place = places.get(socket);
    if (!place) return;
    places.delete(socket);
    const left = (counts.get(place.group) ?? 1) - 1;
    if (left > 0) counts.set(place.group, left);
    else counts.delete(place.group);
  };
  /**
   * The socket to give way to a newcomer holding `holding` whose group's record is `own`, when the
   * heaviest groups hold `most`, and whether it was drawn from the live ones: one walk, oldest first.
   */
  const leaving = (most: number, holding: number, own: Displaced | undefined, at: number) => {
    const times = own?.times ?? 0;
    let idle: S | undefined;
    let young: S | undefined;
    const live: S[] = [];
    for (const [socket, place] of places) {
      const standing = place.standing();
      if (standing !== 'live' && at - place.since >= graceMs) {
        if (standing === 'connecting') return { socket };
        idle ??= socket;
        continue;
      }
      if (standing !== 'live') {
        // In its first second: only for an address displaced as seldom, and never a visitor back
        // on its return, which would else lose its place again before it subscribes and be barred.
        if (!place.returning && (displaced.get(place.group)?.times ?? 0) >= times) young ??= socket;
        continue;
      }
      if (holding > 0 || counts.get(place.group) !== most) continue;
      if (!own || (own.returnBefore !== undefined && place.since < own.returnBefore)) live.push(socket);
    }
    if (idle !== undefined || young !== undefined) return { socket: idle ?? young };
    // Among the live, chance: no order of arrival (the newest, the oldest) can be aimed at.
    const socket = live[Math.floor(random() * live.length)];
    const settled = socket !== undefined && at - (places.get(socket)?.since ?? at) >= graceMs;
    // A fresh address displaces a settled socket within the budget only (a return is bounded by
    // the draws that earned it). Past it, only one in its first second of an address never
    // displaced: the attack's own, not a visitor's just back.
    if (!settled || own || displacements()) return { socket, drawn: true };
    const justCome = live.filter((other) => {
      const place = places.get(other);
      return place && at - place.since < graceMs && !displaced.has(place.group);
    });
    return { socket: justCome[Math.floor(random() * justCome.length)], drawn: true };
  };
  return {
    /**
     * A place for `socket` of `address`: its release (once is enough; later calls do nothing), or
     * undefined when refused. `giveWay` is called, once, if it is later closed to make room;
     * `standing` is asked at the cap, to choose who gives way.
     */
    take(address: string, socket: S, giveWay: () => void, standing: () => SocketStanding): (() => void) | undefined {
      const group = addressGroup(address);
      const count = counts.get(group) ?? 0;
      if (count >= perAddress) return undefined;
      const at = now();
      const own = displacedOf(group, at);
      const returning = own?.returnBefore !== undefined;
      if (places.size >= total) {
        let most = 0;
        for (const held of counts.values()) most = Math.max(most, held);
        const barred = own && own.times >= 2 && at - own.at < barredMs && own.returnBefore === undefined;
        if (count + 1 > most || barred) return undefined;
        const { socket: out, drawn } = leaving(most, count, own, at);
        const place = out === undefined ? undefined : places.get(out);
        if (out === undefined || !place) return undefined;
        release(out);
        // A return is spent on a live place; one held past its first second and drawn by a
        // newcomer not displaced earns one.
        if (drawn && own) own.returnBefore = undefined;
        const earned = drawn && !own && at - place.since >= graceMs;
        const times = (displaced.get(place.group)?.times ?? 0) + 1;
        displaced.delete(place.group);
        displaced.set(place.group, earned ? { times, at, returnBefore: at } : { times, at });
        place.giveWay();
      }
      places.set(socket, { group, giveWay, standing, since: at, returning });
      // Counted again: the socket that gave way may have been of this group.
      counts.set(group, (counts.get(group) ?? 0) + 1);
      return () => release(socket);
    },
    /** Sockets holding a place now. */
    open: () => places.size,
    /** Sockets the group of `address` holds now. */
    of: (address: string) => counts.get(addressGroup(address)) ?? 0,
  };
}
