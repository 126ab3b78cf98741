import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

export interface SharedLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** How often an unreachable Redis is reported at most: the log must not drown while it is down. */
export const REPORT_EVERY_MS = 60_000;

/**
 * The connection to the shared tier: one client for commands, one for subscriptions (a subscribed
 * connection can do nothing else). Commands fail at once while Redis is down instead of queueing,
 * so every caller falls back to its own memory; the clients reconnect by themselves.
 */
export class SharedRedis {
  /** This process among all that share the tier: messages it sent itself are ignored. */
  readonly instance = randomUUID();
  readonly commands: Redis;
  readonly subscriber: Redis;
  #log: SharedLog;
  #lastReport = 0;
  #wasDown = false;
  #onRecover = new Set<() => void>();

  constructor(url: string, log: SharedLog) {
    this.#log = log;
    const options = {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      // Reconnect for ever, at most every 2 s.
      retryStrategy: (attempt: number) => Math.min(attempt * 200, 2_000),
    };
    this.commands = new Redis(url, options);
    this.subscriber = new Redis(url, { ...options, enableOfflineQueue: true });
    for (const client of [this.commands, this.subscriber]) {
      client.on('error', (error: Error) => this.#down(error));
      client.on('ready', () => this.#up());
    }
  }

  /** True while both connections are usable. */
  get up(): boolean {
    return this.commands.status === 'ready' && this.subscriber.status === 'ready';
  }

  /** Called each time the tier comes back after being unreachable (messages may have been missed). */
  onRecover(listener: () => void): void {
    this.#onRecover.add(listener);
  }

  /** Reports a failure of a command a caller made (at most once a minute, like connection errors). */
  report(error: unknown, doing: string): void {
    this.#down(error, doing);
  }

  async close(): Promise<void> {
    this.#onRecover.clear();
    await Promise.allSettled([this.commands.quit(), this.subscriber.quit()]);
    this.commands.disconnect();
    this.subscriber.disconnect();
  }

  #down(error: unknown, doing?: string): void {
    this.#wasDown = true;
    const now = Date.now();
    if (now - this.#lastReport < REPORT_EVERY_MS) return;
    this.#lastReport = now;
    const message = error instanceof Error ? error.message : String(error);
    this.#log.warn(
      { err: message, ...(doing ? { doing } : {}) },
      'Shared tier (Redis) unreachable: serving from this instance’s memory until it is back',
    );
  }

  #up(): void {
    if (!this.up || !this.#wasDown) return;
    this.#wasDown = false;
    this.#lastReport = 0;
    this.#log.info({}, 'Shared tier (Redis) reachable again');
    for (const listener of this.#onRecover) listener();
  }
}
