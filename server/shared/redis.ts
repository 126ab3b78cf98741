import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

export interface SharedLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** How often an unreachable Redis is reported at most: the log must not drown while it is down. */
export const REPORT_EVERY_MS = 60_000;

/** Defaults: a shared-tier command slower than this is a failure, and the tier counts as slow. */
export const COMMAND_TIMEOUT_MS = 500;
/** How often a ready tier is pinged, so a frozen Redis is found even when no command is in flight. */
export const HEARTBEAT_MS = 1_000;

export type SharedState = 'ok' | 'slow' | 'unreachable';

/**
 * The connection to the shared tier: one client for commands, one for subscriptions (a subscribed
 * connection can do nothing else). Commands fail at once while Redis is down instead of queueing,
 * so every caller falls back to its own memory; the clients reconnect by themselves.
 * A frozen or partitioned Redis keeps its connection open and answers nothing: every command has a
 * deadline, and one that passes it drops the command connection, so until Redis answers again every
 * command fails at once (as when it is down) instead of each waiting out its own deadline.
 */
export class SharedRedis {
  /** This process among all that share the tier: messages it sent itself are ignored. */
  readonly instance = randomUUID();
  readonly commands: Redis;
  readonly subscriber: Redis;
  #log: SharedLog;
  #lastReport = 0;
  #wasDown = false;
  #slow = false;
  #everReady = false;
  /** The subscription connection closed since the tier was last up: messages may have been missed. */
  #missed = false;
  #onRecover = new Set<(missed: boolean) => void>();
  #heartbeat: NodeJS.Timeout;

  constructor(url: string, log: SharedLog, timing: { commandTimeoutMs?: number; heartbeatMs?: number } = {}) {
    this.#log = log;
    const options = {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      // A connection (TCP and Redis's answer to the ready check) gets this long.
      connectTimeout: 2_000,
      // Reconnect for ever, at most every 2 s.
      retryStrategy: (attempt: number) => Math.min(attempt * 200, 2_000),
    };
    this.commands = new Redis(url, { ...options, commandTimeout: timing.commandTimeoutMs ?? COMMAND_TIMEOUT_MS });
    this.subscriber = new Redis(url, { ...options, enableOfflineQueue: true });
    for (const client of [this.commands, this.subscriber]) {
      client.on('error', (error: Error) => this.#down(error));
      client.on('ready', () => this.#up());
    }
    this.subscriber.on('close', () => {
      if (this.#everReady) this.#missed = true;
    });
    this.#heartbeat = setInterval(() => {
      if (this.commands.status === 'ready') this.commands.ping().catch((error: unknown) => this.#down(error));
    }, timing.heartbeatMs ?? HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  /** True while both connections are usable. */
  get up(): boolean {
    return this.commands.status === 'ready' && this.subscriber.status === 'ready';
  }

  /** For /readyz: `slow` when the last failure was a command past its deadline. */
  get state(): SharedState {
    if (this.up) return 'ok';
    return this.#slow ? 'slow' : 'unreachable';
  }

  /**
   * Called each time the tier comes back after being unreachable or slow; `missed` when the
   * subscription connection was lost meanwhile, so messages may have been missed. A slow tier keeps
   * that connection (only the command connection is dropped), so a stall of this process's own
   * event loop taken for a slow Redis clears no cache.
   */
  onRecover(listener: (missed: boolean) => void): void {
    this.#onRecover.add(listener);
  }

  /** Reports a failure of a command a caller made (at most once a minute, like connection errors). */
  report(error: unknown, doing: string): void {
    this.#down(error, doing);
  }

  async close(): Promise<void> {
    clearInterval(this.#heartbeat);
    this.#onRecover.clear();
    await Promise.allSettled([this.commands.quit(), this.subscriber.quit()]);
    this.commands.disconnect();
    this.subscriber.disconnect();
  }

  #down(error: unknown, doing?: string): void {
    this.#wasDown = true;
    if (error instanceof Error && error.message === TIMED_OUT) {
      this.#slow = true;
      // Every later command fails at once until the new connection's ready check is answered.
      if (this.commands.status === 'ready') this.commands.disconnect(true);
    }
    // A command made while the first connection is still being set up is no failure of Redis
    // (it is answered from memory); only a failed connection is reported before the first ready.
    if (!this.#everReady && doing !== undefined && !this.#slow) return;
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
    if (!this.up) return;
    this.#everReady = true;
    if (!this.#wasDown) return;
    this.#wasDown = false;
    this.#slow = false;
    // Said only when a failure was logged: a first connection is no recovery.
    if (this.#lastReport !== 0) this.#log.info({}, 'Shared tier (Redis) reachable again');
    this.#lastReport = 0;
    const missed = this.#missed;
    this.#missed = false;
    for (const listener of this.#onRecover) listener(missed);
  }
}

/** ioredis's rejection of a command past `commandTimeout`. */
const TIMED_OUT = 'Command timed out';
