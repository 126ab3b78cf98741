import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionCaps {
  /** Connections the server holds at most, of every kind (pages, sockets, refused upgrades). */
  total: number;
  /** Connections one client address holds at most; a trusted proxy's count only toward `total`. */
  perAddress: number;
  /**
   * Of `total`, the places only this machine's own loopback address (127.0.0.1, ::1) may take: the
   * health probes of a container or a host get in when every other place is held.
   */
  reserved: number;
  /** A connection that has sent no byte this long is closed: Node's own timeouts start at the first byte. */
  firstByteMs: number;
}

/** The peers the reserved places are for: this machine itself, as its health probes connect. */
const PROBE_PEERS = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Why a connection was closed at the door: the label of the refusals metric. */
export type ConnectionRefusal = 'per_address' | 'total';

/**
 * Caps the TCP connections the server holds, so no client, slow or not, can take every descriptor
 * (docs/decisions/0100-connection-caps.md). Checked when a connection is accepted, before a byte of
 * it is parsed: one over a cap is closed at once, without an answer, as a full listen queue would.
 * The per-address cap is checked first and is far below the total, so one address cannot fill the
 * server for everyone else. A trusted proxy carries many visitors over its connections, so only the
 * total holds it; the proxy caps each visitor itself, and the per-visitor caps that matter behind it
 * (sockets, rate limits) count the forwarded address.
 */
export function capConnections(
  server: Server,
  caps: ConnectionCaps,
  options: {
    isTrustedProxy: (peer: string) => boolean;
    onRefused?: (reason: ConnectionRefusal) => void;
    /** A failed accept (EMFILE when descriptors run out anyway): reported, never an exit. */
    onAcceptError?: (error: Error) => void;
  },
): { open(): number } {
  const perAddress = new Map<string, number>();
  let open = 0;
  // After listen, so a listen failure (EADDRINUSE) still reaches whoever called listen.
  server.once('listening', () => server.on('error', (error) => options.onAcceptError?.(error)));
  server.on('connection', (socket: Socket) => {
    // Every socket gets a listener before anything else can fail on it: a reset before the HTTP
    // parser attaches its own must not be an uncaught exception.
    socket.on('error', () => {});
    const address = socket.remoteAddress;
    // A socket already gone has no address: nothing to count or close.
    if (address === undefined) return socket.destroy();
    const trusted = options.isTrustedProxy(address);
    const held = perAddress.get(address) ?? 0;
    const total = PROBE_PEERS.has(address) ? caps.total : caps.total - caps.reserved;
    const refusal: ConnectionRefusal | undefined =
      !trusted && held >= caps.perAddress ? 'per_address' : open >= total ? 'total' : undefined;
    if (refusal) {
      options.onRefused?.(refusal);
      return socket.destroy();
    }
    open++;
    if (!trusted) perAddress.set(address, held + 1);
    // Checked once at the deadline: a connection that has sent anything is in Node's hands by then.
    const silent = setTimeout(() => {
      if (socket.bytesRead === 0) socket.destroy();
    }, caps.firstByteMs).unref();
    socket.once('close', () => {
      clearTimeout(silent);
      open--;
      if (trusted) return;
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
  });
  return { open: () => open };
}

/**
 * The caps in force: the configured ones, else the defaults. The total defaults to half the
 * descriptors the process may open (the rest for files, upstreams and Redis), at most 10,000; the
 * per-address cap to an eighth of the total, at most 256, so it takes eight addresses to fill it;
 * the probes' reserve to a sixteenth, at most 16; the first byte to 10 s, as headers get.
 */
export function connectionCaps(
  configured: Partial<ConnectionCaps> = {},
  descriptors = descriptorLimit(),
): ConnectionCaps {
  const total = configured.total ?? Math.max(64, Math.min(10_000, Math.floor((descriptors ?? 20_000) / 2)));
  return {
    total,
    perAddress: configured.perAddress ?? Math.max(1, Math.min(256, Math.floor(total / 8))),
    reserved: configured.reserved ?? Math.min(16, Math.floor(total / 16)),
    firstByteMs: configured.firstByteMs ?? 10_000,
  };
}

/** The soft limit on open files (Node raises it to the hard limit at start), or undefined off Linux. */
function descriptorLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return line ? Number(line[1]) : undefined;
  } catch {
    return undefined;
  }
}
