import { connect, type Socket } from 'node:net';
import type { Test } from 'tap';
import type { ProductionServer } from './production-server.ts';

/**
 * What every hostile case shares: raw connections from loopback addresses (all of 127/8 is this
 * machine, so an attacker and a visitor can be told apart), the health monitor, and the case
 * wrapper that asserts the process lives and `/healthcheck` answered within a second throughout.
 */

/** Where the health monitor connects from; attacks come from other loopback addresses. */
export const VISITOR = '127.0.0.1';
export const ATTACKER = '127.0.0.2';
/** The slowest `/healthcheck` a case may see, and the longest a probe waits. */
export const HEALTH_BOUND_MS = 1_000;
const PROBE_EVERY_MS = 50;

export interface RawAnswer {
  status: number;
  headers: string;
  body: string;
}

/** One raw HTTP exchange (`data` as sent, nothing normalised), read until the server closes. */
export function exchange(
  port: number,
  data: string | Buffer,
  { from = ATTACKER, timeoutMs = 10_000 }: { from?: string; timeoutMs?: number } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1] ?? 0) || 0, headers: head, body: rest.join('\r\n\r\n') });
    });
    socket.write(data);
  });
}

/** A GET (or another method) with these header lines, `Connection: close` added. */
export function request(
  port: number,
  target: string,
  headers: string[] = [],
  { method = 'GET', body, from }: { method?: string; body?: string; from?: string } = {},
): Promise<RawAnswer> {
  const lines = [`${method} ${target} HTTP/1.1`, ...headers, 'Connection: close'];
  if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return exchange(port, `${lines.join('\r\n')}\r\n\r\n${body ?? ''}`, from ? { from } : {});
}

/** The header lines of a WebSocket upgrade for the GraphQL socket. */
export function upgradeHeaders(host: string, extra: string[] = []): string[] {
  return [
    `Host: ${host}`,
    'Upgrade: websocket',
    'Connection: Upgrade',
    'Sec-WebSocket-Version: 13',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    'Sec-WebSocket-Protocol: graphql-transport-ws',
    ...extra,
  ];
}

/** A connection held open from `from`; destroyed with the test. */
export function open(t: Test, port: number, from = ATTACKER): Promise<Socket> {
  const socket = connect({ port, host: '127.0.0.1', localAddress: from, allowHalfOpen: true });
  socket.on('error', () => {});
  t.teardown(() => socket.destroy());
  return new Promise((resolve) => socket.once('connect', () => resolve(socket)));
}

/** True once the server has ended or cut `socket` (a half-open client still sees the end). */
export function ended(socket: Socket): boolean {
  return socket.readableEnded || socket.destroyed;
}

/** Resolves when the server has ended or cut `socket`. */
export function closedByServer(socket: Socket): Promise<void> {
  if (ended(socket)) return Promise.resolve();
  return new Promise((resolve) => {
    socket.once('end', () => resolve());
    socket.once('close', () => resolve());
    // Data is read so that the end can be seen.
    socket.resume();
  });
}

export interface HealthRecord {
  probes: number;
  /** The slowest answer in ms, or HEALTH_BOUND_MS when one did not come at all. */
  worstMs: number;
  failures: string[];
}

/** Probes `/healthcheck` one after another, each over a new connection from VISITOR, until stopped. */
export function monitorHealth(port: number): { stop(): Promise<HealthRecord> } {
  const record: HealthRecord = { probes: 0, worstMs: 0, failures: [] };
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const answer = await exchange(
          port,
          'GET /healthcheck HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
          {
            from: VISITOR,
            timeoutMs: HEALTH_BOUND_MS * 5,
          },
        );
        if (answer.status !== 200) record.failures.push(`status ${answer.status}`);
      } catch (error) {
        record.failures.push((error as Error).message);
      }
      record.worstMs = Math.max(record.worstMs, performance.now() - started);
      record.probes++;
      // A sampling rate, not a wait for something: the monitor must not be a load of its own.
      await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return record;
    },
  };
}

/** The worst health answer over every case of a file, for the report. */
let worstOfAll = 0;
export function worstHealthMs(): number {
  return worstOfAll;
}

/**
 * A hostile case: runs `attack` while `/healthcheck` is probed throughout, then asserts that the
 * server process is alive and every probe answered 200 within HEALTH_BOUND_MS.
 */
export function hostileCase(
  t: Test,
  server: ProductionServer,
  name: string,
  attack: (t: Test) => Promise<void>,
): Promise<unknown> {
  return t.test(name, async (t) => {
    const health = monitorHealth(server.port);
    try {
      await attack(t);
    } finally {
      const record = await health.stop();
      worstOfAll = Math.max(worstOfAll, record.worstMs);
      t.ok(server.alive(), 'the server process is alive afterwards');
      t.same(record.failures, [], `/healthcheck answered 200 every time (${record.probes} probes)`);
      t.ok(
        record.worstMs < HEALTH_BOUND_MS,
        `/healthcheck answered within ${HEALTH_BOUND_MS} ms throughout (worst ${Math.round(record.worstMs)} ms)`,
      );
    }
  });
}
