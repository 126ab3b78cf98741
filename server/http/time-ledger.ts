/**
 * The seconds over which an address's time is summed, in request bodies or waiting for a first
 * request (docs/decisions/0214-time-in-bodies-judged-over-ten-seconds.md): long enough that bodies
 * renewed back to back add up past a second whatever each one's length, short enough that a
 * visitor's small POSTs (milliseconds each) never do.
 */
export const LEDGER_WINDOW_SECONDS = 10;

/**
 * The milliseconds spent (receiving request bodies, or waiting) in spells that ended within the last
 * LEDGER_WINDOW_SECONDS: one count per second of the clock, in a ring, so its size never grows with
 * the number of requests.
 */
export class WindowTime {
  private readonly ms = new Array<number>(LEDGER_WINDOW_SECONDS).fill(0);
  private second = 0;

  /** Counts a spell that ended at `now` after `ms`. */
  add(ms: number, now: number): void {
    this.advance(now);
    this.ms[this.second % LEDGER_WINDOW_SECONDS] = (this.ms[this.second % LEDGER_WINDOW_SECONDS] ?? 0) + ms;
  }

  /** The spells ended within the window before `now`. */
  within(now: number): number {
    this.advance(now);
    return this.ms.reduce((sum, ms) => sum + ms, 0);
  }

  /** Forgets the seconds that have left the window. */
  private advance(now: number): void {
    const second = Math.floor(now / 1_000);
    const gone = Math.min(second - this.second, LEDGER_WINDOW_SECONDS);
    for (let k = 1; k <= gone; k++) this.ms[(this.second + k) % LEDGER_WINDOW_SECONDS] = 0;
    this.second = second;
  }
}

/**
 * Each address's time in one state over the window (request bodies, decision 0215; waiting for a
 * first request, decision 0218), across all its connections, closed ones included
 * (docs/decisions/0215-time-in-bodies-judged-per-address.md): reconnecting does not reset it. At
 * most `max` addresses, the one whose latest spell ended longest ago forgotten first; an address
 * whose latest spell has left the window is forgotten as the next one is counted.
 */
export class TimeLedger {
  // Least recently counted first: a Map keeps the order its keys were (re)inserted in.
  private readonly addresses = new Map<string, { time: WindowTime; at: number }>();
  private readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  /** Counts a spell of `address` that ended at `now` after `ms`. */
  add(address: string, ms: number, now: number): void {
    const entry = this.addresses.get(address) ?? { time: new WindowTime(), at: now };
    this.addresses.delete(address);
    entry.time.add(ms, now);
    entry.at = now;
    this.addresses.set(address, entry);
    for (const [oldest, { at }] of this.addresses) {
      if (this.addresses.size <= this.max && now - at < LEDGER_WINDOW_SECONDS * 1_000) break;
      this.addresses.delete(oldest);
    }
  }

  /** The spells of `address` ended within the window before `now`. */
  within(address: string, now: number): number {
    return this.addresses.get(address)?.time.within(now) ?? 0;
  }

  /** The addresses it remembers. */
  get size(): number {
    return this.addresses.size;
  }
}
