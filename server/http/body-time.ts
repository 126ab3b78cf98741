/**
 * The seconds over which time spent receiving request bodies is summed
 * (docs/decisions/0214-time-in-bodies-judged-over-ten-seconds.md): long enough that bodies renewed
 * back to back add up past a second whatever each one's length, short enough that a visitor's small
 * POSTs (milliseconds each) never do.
 */
export const BODY_WINDOW_SECONDS = 10;

/**
 * The milliseconds spent receiving request bodies that ended within the last BODY_WINDOW_SECONDS:
 * one count per second of the clock, in a ring, so its size never grows with the number of requests.
 */
export class BodyTime {
  private readonly ms = new Array<number>(BODY_WINDOW_SECONDS).fill(0);
  private second = 0;

  /** Counts a body that ended at `now` after `ms`. */
  add(ms: number, now: number): void {
    this.advance(now);
    this.ms[this.second % BODY_WINDOW_SECONDS] = (this.ms[this.second % BODY_WINDOW_SECONDS] ?? 0) + ms;
  }

  /** The bodies ended within the window before `now`. */
  within(now: number): number {
    this.advance(now);
    return this.ms.reduce((sum, ms) => sum + ms, 0);
  }

  /** Forgets the seconds that have left the window. */
  private advance(now: number): void {
    const second = Math.floor(now / 1_000);
    const gone = Math.min(second - this.second, BODY_WINDOW_SECONDS);
    for (let k = 1; k <= gone; k++) this.ms[(this.second + k) % BODY_WINDOW_SECONDS] = 0;
    this.second = second;
  }
}

/**
 * Each address's time in request bodies over the window, across all its connections, closed ones
 * included (docs/decisions/0215-time-in-bodies-judged-per-address.md): reconnecting does not reset
 * it. At most `max` addresses, the one whose latest body ended longest ago forgotten first; an
 * address whose latest body has left the window is forgotten as the next one is counted.
 */
export class BodyLedger {
  // Least recently counted first: a Map keeps the order its keys were (re)inserted in.
  private readonly addresses = new Map<string, { time: BodyTime; at: number }>();
  private readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  /** Counts a body of `address` that ended at `now` after `ms`. */
  add(address: string, ms: number, now: number): void {
    const entry = this.addresses.get(address) ?? { time: new BodyTime(), at: now };
    this.addresses.delete(address);
    entry.time.add(ms, now);
    entry.at = now;
    this.addresses.set(address, entry);
    for (const [oldest, { at }] of this.addresses) {
      if (this.addresses.size <= this.max && now - at < BODY_WINDOW_SECONDS * 1_000) break;
      this.addresses.delete(oldest);
    }
  }

  /** The bodies of `address` ended within the window before `now`. */
  within(address: string, now: number): number {
    return this.addresses.get(address)?.time.within(now) ?? 0;
  }

  /** The addresses it remembers. */
  get size(): number {
    return this.addresses.size;
  }
}
