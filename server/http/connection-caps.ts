import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { addressGroup } from './client-address.ts';
import { TimeLedger, WindowTime } from './time-ledger.ts';

export interface ConnectionCaps {
  /** Connections the server holds at most, of every kind (pages, sockets, refused upgrades). */
  total: number;
  /**
   * Connections one client address holds at most, an IPv6 address counted by its /64 (one host is
   * handed a whole /64); a trusted proxy's count only toward `total`.
   */
  perAddress: number;
  /**
   * Of `total`, the places only this machine's own loopback address (127.0.0.1, ::1) may take: the
   * health probes of a container or a host get in when every other place is held.
   */
  reserved: number;
  /** A connection that has sent no byte this long is closed: Node's own timeouts start at the first byte. */
  firstByteMs: number;
  /**
   * A connection whose request head is not whole this long after it connected (or after its last
   * answer) gives its place to any newcomer at the total cap: a browser sends its head in one packet
   * (docs/decisions/0186-stalled-heads-give-way.md). A younger one does only once its head has begun
   * to come, or when its address keeps abandoning heads (decision 0202); a young silent one is a
   * visitor's head a round trip away.
   */
  headMs: number;
  /**
   * A request whose body has come slower than this, on average, since `headMs` after its head was
   * whole gives its place to any newcomer at the total cap, as a stalled head does
   * (docs/decisions/0201-stalled-bodies-give-way.md); an upload that moves keeps it.
   */
  bodyBytesPerSecond: number;
}

/** The peers the reserved places are for: this machine itself, as its health probes connect. */
const PROBE_PEERS = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Why a connection was closed at the door: the label of the refusals metric. */
export type ConnectionRefusal = 'per_address' | 'total';

/**
 * Why an admitted connection was closed before its time: it pipelined past the bound, or it had not
 * finished sending its request when a newcomer needed its place.
 */
export type ConnectionCut = 'pipelined' | 'incomplete';

/**
 * Requests one connection may have in flight (received, answer not finished) at once. Browsers never
 * pipeline; a client that sends more in one go is closed before any work is done for the excess
 * (docs/decisions/0188-pipelined-requests-bounded.md). A request answered before the rest of its
 * read is parsed still counts until the client sends again, whatever its body (decision 0190).
 */
export const IN_FLIGHT_MAX = 4;

/**
 * Heads an address may abandon (connections closed, by either end, before a head was whole) within
 * `ABANDONED_HEADS_MS` and still have its young silent connections spared at the cap
 * (docs/decisions/0202-begun-and-abandoned-heads-give-way.md): a browser abandons
 * one now and then (an unused preconnect, the loser of a connection race), an attacker renewing its
 * connections within the second one a second.
 */
export const ABANDONED_HEADS_CHURN = 3;
const ABANDONED_HEADS_MS = 30_000;

/**
 * Addresses whose time (in bodies, waiting for a first request) is remembered, per place of the
 * total cap: every address holding a place and as many again whose connections have closed
 * (decision 0215); 9,000 fresh addresses posting once cost no more.
 */
const LEDGER_ADDRESSES_PER_PLACE = 2;

/**
 * The shortest wait before a first request that counts to its address (decision 0218): a shorter
 * one is as likely the server's own delay in reading a busy loop's sockets as the client's silence,
 * and an address whose connections each wait less holds no place for long.
 */
const WAIT_COUNTED_MS = 100;

/**
 * Counts a body's time, from `since` (its head whole) to when it is whole (its reader sees the end)
 * or its answer is, whichever comes first: once, to its connection and to its address (none for a
 * trusted proxy's). A body cut short is not counted: its address has abandoned a request (0210).
 */
function bodyCounter(state: Held, since: number, ledger: TimeLedger): () => void {
  let counted = false;
  return () => {
    if (counted) return;
    counted = true;
    const now = Date.now();
    state.bodies ??= new WindowTime();
    state.bodies.add(now - since, now);
    if (state.group !== undefined) ledger.add(state.group, now - since, now);
  };
}

/** What the caps know of a connection they admitted. */
interface Held {
  /** Requests received and not yet answered (more than one when pipelined). */
  requests: number;
  /** What it had read when its latest request came: the read the parser is working through. */
  read: number;
  /**
   * Answers finished to requests of that same read. Node runs microtasks between the parser's
   * callbacks, so a request answered without I/O (a GraphQL POST) is done before the next head in
   * the read is parsed: it was sent without waiting for its answer all the same.
   */
  answeredInRead: number;
  /** Handed to a WebSocket upgrade: its request was whole, so it never gives way as incomplete. */
  upgraded?: boolean;
  /**
   * The latest request received and its answer (whether it has been sent whole, whether answered),
   * when its head was whole and what the connection had read by then: its body's progress since.
   */
  last?: { request: IncomingMessage; response: ServerResponse; since: number; read: number };
  /** Its address group (`addressGroup`); none for a trusted proxy's, which carries many visitors. */
  group?: string;
  /** Its time receiving bodies lately, from each head whole to its body whole (or its answer finished); from its first body. */
  bodies?: WindowTime;
  /** What it had read when its last answer finished: more since then means a new request has begun. */
  readAtIdle: number;
  /** When it began waiting for a request head: when it connected, then when its last answer finished. */
  headSince: number;
  /** When it connected: until its first request, the time it has waited for one (decision 0218). */
  accepted: number;
  /**
   * From this machine itself (a health probe): its waits and abandoned heads are never counted, and
   * its place, one of the reserve, goes to nobody but another probe, and only when it is idle or
   * ended (decision 0220).
   */
  probe: boolean;
  /**
   * An answer waiting on its client to read: the bytes still queued for the socket when the caps
   * last looked, and since when that has not changed (decision 0222). Sampled only when the server
   * is full, so it costs the pages' path nothing.
   */
  unread?: { queued: number; since: number };
  /** Gives its place back; once only, whether it closes on its own or is closed to make room. */
  release(): void;
}

/**
 * Bytes an answer has queued for its socket and the kernel has not taken: libuv's write queue (what
 * a write in progress has left) and the stream's own buffer. Both stand still while the client
 * reads nothing, and move whenever it reads, however slowly.
 */
function queuedBytes(socket: Socket): number {
  const handle = (socket as Socket & { _handle?: { writeQueueSize?: number } })._handle;
  return (handle?.writeQueueSize ?? 0) + socket.writableLength;
}

/**
 * Caps the TCP connections the server holds, so no client, slow or not, can take every descriptor
 * (docs/decisions/0100-connection-caps.md). Checked when a connection is accepted, before a byte of
 * it is parsed: one over a cap is closed at once, without an answer, as a full listen queue would.
 * The per-address cap is checked first and is far below the total, so one address cannot fill the
 * server for everyone else. A trusted proxy carries many visitors over its connections, so only the
 * total holds it; the proxy caps each visitor itself, and the per-visitor caps that matter behind it
 * (sockets, rate limits) count the forwarded address.
 *
 * At the total, a kept-alive connection with nothing in flight gives its place to the newcomer, the
 * longest idle first (docs/decisions/0176-idle-connections-make-room.md): a browser reconnects
 * when its idle connection closes, and one request per connection per keep-alive timeout no longer
 * holds the server. When none is idle, a newcomer whose address holds fewer connections than the
 * address holding the most takes the place of that address's oldest connection that has not finished
 * sending its request (docs/decisions/0189-incomplete-connections-make-room.md): a visitor's request
 * is whole in milliseconds, a connection held silent or slow holds for seconds. Before that rule, a
 * connection whose head is still not whole `headMs` after it began gives way to any newcomer,
 * whatever the address counts (decision 0186): one such connection per address no longer holds it;
 * so does one whose request body has come slower than `bodyBytesPerSecond` since (decision 0201),
 * one whose head has begun to come and is not whole, at any age, and any waiting for a head of an
 * address that keeps abandoning heads, that address first (decision 0202): renewing a connection
 * within the second no longer holds a place. Then a connection still waiting for its first request
 * gives way when its address has spent a second of the last ten waiting before its requests, and a
 * newcomer from such an address takes no body's place, and neither it nor one from an address long
 * in bodies the place of a connection idle less than `headMs` (decision 0218): nothing is lost by
 * closing a connection that has begun no request, and a browser between two slow POSTs is idle a
 * moment. After those, and before the rule of two more, a body
 * still coming, however fast, of an address that has spent a second of the last ten receiving
 * bodies, on that connection or others since closed (one body a second old, bodies renewed back to
 * back, or a connection per body), gives way to a newcomer whose address holds none such (decisions
 * 0210, 0214, 0215); an address abandoning bodies is churning as one abandoning heads is.
 */
export function capConnections(
  server: Server,
  caps: ConnectionCaps,
  options: {
    isTrustedProxy: (peer: string) => boolean;
    onRefused?: (reason: ConnectionRefusal) => void;
    /** An idle kept-alive connection, or one the server has ended, closed to make room for a newcomer at the total cap. */
    onIdleClosed?: () => void;
    /** An admitted connection closed: pipelined past the bound, or incomplete and its place needed. */
    onCut?: (reason: ConnectionCut) => void;
    /** A failed accept (EMFILE when descriptors run out anyway): reported, never an exit. */
    onAcceptError?: (error: Error) => void;
  },
): { open(): number } {
  // Keyed by address group (`addressGroup`): an IPv6 address by its /64, any other by itself.
  const perAddress = new Map<string, number>();
  // Each address's connections, oldest first (a Set keeps the order they were admitted in).
  const byAddress = new Map<string, Set<Socket>>();
  const held = new WeakMap<Socket, Held>();
  // Each address's time in bodies over the window, its closed connections' included (decision 0215).
  const ledger = new TimeLedger(LEDGER_ADDRESSES_PER_PLACE * caps.total);
  // Each address's time from connecting to its first request on each connection, likewise (0218).
  const waits = new TimeLedger(LEDGER_ADDRESSES_PER_PLACE * caps.total);
  // Kept-alive connections with nothing in flight, in the order they fell idle (a Set keeps it).
  const idle = new Set<Socket>();
  // Connections the server has ended (a refused upgrade answered, a socket closed for policy): they
  // wait only for their client to close, so they give way before anyone else (decision 0193).
  const ended = new Set<Socket>();
  // This machine's own connections, oldest first: in no address's list (decision 0220), so that a
  // probe over its address's cap can still find its own address's stalled ones (0222).
  const probes = new Set<Socket>();
  let open = 0;

  /**
   * Closes the connection the server ended longest ago of those `mayTake` allows (a probe's only for
   * a probe: a place of the reserve never goes to another newcomer); false when there is none.
   */
  const closeEnded = (mayTake: (state: Held | undefined) => boolean): boolean => {
    for (const socket of ended) {
      const state = held.get(socket);
      if (!mayTake(state)) continue;
      state?.release();
      socket.destroy();
      options.onIdleClosed?.();
      return true;
    }
    return false;
  };

  /**
   * Closes the longest-idle connection that has begun nothing since, of those `mayTake` allows, when
   * it has been idle `atLeast` ms; false when there is none.
   */
  const closeLongestIdle = (mayTake: (state: Held | undefined) => boolean, atLeast = 0): boolean => {
    const now = Date.now();
    for (const socket of idle) {
      const state = held.get(socket);
      if (!mayTake(state)) continue;
      if (state && now - state.headSince < atLeast) return false;
      idle.delete(socket);
      // Bytes since its last answer: a request has begun (the parser has them, no event yet).
      if (!state || socket.bytesRead !== state.readAtIdle) continue;
      state.release();
      socket.destroy();
      options.onIdleClosed?.();
      return true;
    }
    return false;
  };

  /**
   * For a probe of `group` over its address's cap: closes that address's connection the server
   * ended longest ago, else its longest idle, else its oldest stalled one (a head, a body or a
   * reader: decision 0222); false when it has none of them.
   */
  const closeOwnPlace = (group: string, now: number): boolean => {
    const own = (state: Held | undefined) => state?.group === group;
    if (closeEnded(own) || closeLongestIdle(own)) return true;
    for (const socket of probes) {
      const state = held.get(socket);
      if (own(state) && stalled(socket, state, now, false)) return cutIncomplete(socket);
    }
    return false;
  };

  /** Closes `socket`, an admitted connection that has not finished sending its request, to make room; false when there is none. */
  const cutIncomplete = (socket: Socket | undefined): boolean => {
    if (!socket) return false;
    held.get(socket)?.release();
    socket.destroy();
    options.onCut?.('incomplete');
    return true;
  };

  // When each address abandoned its latest heads (at most ABANDONED_HEADS_CHURN, oldest first).
  const abandoned = new Map<string, number[]>();
  let sweptAt = Date.now();

  /** Heads `group` abandoned within ABANDONED_HEADS_MS, up to ABANDONED_HEADS_CHURN. */
  const abandonedHeads = (group: string, now: number): number =>
    abandoned.get(group)?.filter((at) => now - at < ABANDONED_HEADS_MS).length ?? 0;

  /** Notes a head `group` abandoned; forgets, once a window, the addresses that abandoned none within it. */
  const noteAbandoned = (group: string, now: number): void => {
    const times = (abandoned.get(group) ?? []).filter((at) => now - at < ABANDONED_HEADS_MS);
    times.push(now);
    abandoned.set(group, times.slice(-ABANDONED_HEADS_CHURN));
    if (now - sweptAt < ABANDONED_HEADS_MS) return;
    sweptAt = now;
    for (const [other, at] of abandoned) if (now - (at.at(-1) ?? 0) >= ABANDONED_HEADS_MS) abandoned.delete(other);
  };

  /**
   * Whether it gives way to any newcomer: waiting for its request head and that head has begun to
   * come (a browser sends it whole: decision 0202), or its address is churning (abandoned
   * ABANDONED_HEADS_CHURN heads lately), or it has waited `headMs` or more (never a silent one just
   * accepted, decision 0186); or it has received its latest request's body, from `headMs` after the
   * head on, slower than `bodyBytesPerSecond` (the bytes in the head's own read do not count, 0201);
   * or its latest request is whole and its client has read nothing for `headMs` (0222).
   */
  const stalled = (socket: Socket, state: Held | undefined, now: number, churning: boolean): state is Held => {
    if (!state || state.upgraded) return false;
    if (state.requests === 0)
      return churning || socket.bytesRead > state.readAtIdle || now - state.headSince >= caps.headMs;
    const last = state.last;
    if (!last) return false;
    // Its latest request whole (or answered already): any answer of it, or of one before it in the
    // pipeline, may be waiting on the client to read.
    if (last.response.headersSent || last.request.complete) return readerStalled(socket, state, now);
    // Its address keeps closing requests before their body is whole: renewing them within the second.
    if (churning) return true;
    const past = now - last.since - caps.headMs;
    return past > 0 && socket.bytesRead - last.read < (caps.bodyBytesPerSecond * past) / 1_000;
  };

  /**
   * Whether an answer begun has waited `headMs` or more for its client to read a byte: bytes queued
   * for the socket and the same number since (docs/decisions/0222-stalled-readers-give-way.md). A
   * phone on the slowest link reads some every second; a client that reads nothing holds the place
   * as a silent head would. Judged from the caps' own looks, when the server is full.
   */
  const readerStalled = (socket: Socket, state: Held, now: number): boolean => {
    const queued = queuedBytes(socket);
    if (queued === 0) {
      state.unread = undefined;
      return false;
    }
    if (state.unread?.queued !== queued) {
      state.unread = { queued, since: now };
      return false;
    }
    return now - state.unread.since >= caps.headMs;
  };

  /**
   * Closes the oldest stalled connection of the address that abandoned the most heads lately, then
   * of the one holding the most, of any that have one; false when there is none. A walk over every
   * counted connection, only when the server is full and nothing is idle or ended.
   */
  const closeStalled = (): boolean => {
    const now = Date.now();
    let chosen: Socket | undefined;
    let best = { churn: -1, count: 0 };
    for (const [group, mine] of byAddress) {
      const churn = abandonedHeads(group, now);
      const count = perAddress.get(group) ?? 0;
      if (churn < best.churn || (churn === best.churn && count <= best.count)) continue;
      for (const socket of mine)
        if (stalled(socket, held.get(socket), now, churn >= ABANDONED_HEADS_CHURN)) {
          chosen = socket;
          best = { churn, count };
          break;
        }
    }
    return cutIncomplete(chosen);
  };

  /**
   * If its latest body is still coming and its answer has not begun: the time its address (`group`)
   * and the connection itself spent receiving bodies within the window, that body included, when the
   * address's is `headMs` or more: one body past its first second, bodies renewed back to back
   * (decision 0214), on one connection or on as many as it likes (decision 0215).
   */
  const timeInBodies = (
    state: Held | undefined,
    group: string,
    now: number,
  ): { address: number; own: number } | undefined => {
    const last = state?.last;
    if (!state || state.upgraded || state.requests === 0 || !last) return undefined;
    if (last.request.complete || last.response.headersSent) return undefined;
    const coming = now - last.since;
    const address = ledger.within(group, now) + coming;
    return address >= caps.headMs ? { address, own: (state.bodies?.within(now) ?? 0) + coming } : undefined;
  };

  /**
   * Closes a connection whose request body is still coming, however fast, whose answer has not begun,
   * and whose address has spent `headMs` or more of the last ten seconds receiving bodies: the address
   * holding the most first, then the address longest in bodies, then the connection. A visitor's body
   * is a few KB, sent within the second (docs/decisions/0210-bodies-past-their-first-second-give-way.md),
   * its bodies milliseconds each (decision 0214); reconnecting does not reset an address's time
   * (decision 0215). Never for a newcomer whose address (`group`; none for a trusted proxy) holds such
   * a body itself: a slow sender does not push out another. False when there is none.
   */
  const closeLongestBody = (group: string | undefined): boolean => {
    const now = Date.now();
    if (group !== undefined)
      for (const socket of byAddress.get(group) ?? [])
        if (timeInBodies(held.get(socket), group, now) !== undefined) return false;
    let chosen: Socket | undefined;
    let best = { count: 0, address: 0, own: 0 };
    for (const [other, mine] of byAddress) {
      const count = perAddress.get(other) ?? 0;
      if (count < best.count) continue;
      for (const socket of mine) {
        const time = timeInBodies(held.get(socket), other, now);
        if (!time) continue;
        const longer = time.address > best.address || (time.address === best.address && time.own > best.own);
        if (count > best.count || longer) {
          chosen = socket;
          best = { count, ...time };
        }
      }
    }
    return cutIncomplete(chosen);
  };

  /**
   * If it has had no request yet: the time its address (`group`) spent waiting for a first request
   * within the window, its closed connections' and this one's so far, when that is `headMs` or more,
   * and this one's own wait. A browser's request follows its connection at once, an unused preconnect
   * closes without one (never counted); a connection held a second before each request adds up.
   */
  const timeWaiting = (
    state: Held | undefined,
    group: string,
    now: number,
  ): { address: number; own: number } | undefined => {
    if (!state || state.upgraded || state.last) return undefined;
    const own = now - state.accepted;
    const address = waits.within(group, now) + own;
    return address >= caps.headMs ? { address, own } : undefined;
  };

  /**
   * Closes a connection still waiting for its first request whose address has waited `headMs` or
   * more of the window before its requests (docs/decisions/0218-waiting-addresses-give-way-before-bodies.md):
   * the address longest waiting first, then the connection. Nothing is lost by closing one: no request
   * has begun on it. False when there is none.
   */
  const closeLongestWaiting = (): boolean => {
    const now = Date.now();
    let chosen: Socket | undefined;
    let best = { address: 0, own: -1 };
    for (const [group, mine] of byAddress)
      for (const socket of mine) {
        const time = timeWaiting(held.get(socket), group, now);
        if (time && (time.address > best.address || (time.address === best.address && time.own > best.own))) {
          chosen = socket;
          best = time;
        }
      }
    return cutIncomplete(chosen);
  };

  /**
   * Closes the oldest incomplete connection of the address holding the most, when it holds more than
   * `holding` (the newcomer's address); false when there is none. Incomplete: no request being
   * answered, or the latest one's body still coming and no answer begun. Never of the newcomer's own
   * address, which holds fewer: a browser's burst never loses a connection to its own later ones.
   */
  const closeOldestIncomplete = (holding: number): boolean => {
    let most: string | undefined;
    let count = holding;
    for (const [address, n] of perAddress)
      if (n > count) {
        most = address;
        count = n;
      }
    for (const socket of (most && byAddress.get(most)) || []) {
      const state = held.get(socket);
      const last = state?.last;
      if (!state || state.upgraded) continue;
      if (state.requests > 0 && (last?.request.complete || last?.response.headersSent)) continue;
      return cutIncomplete(socket);
    }
    return false;
  };

  /**
   * At the total cap: closes the connection a newcomer from `group` (none: a trusted proxy), whose
   * address holds `holding`, takes the place of (a `probe` of this machine's may take a probe's);
   * false when none gives way.
   */
  const makeRoom = (group: string | undefined, holding: number, now: number, probe: boolean): boolean => {
    // An address that keeps abandoning requests takes only places nobody is using: its renewals are
    // closed at the door, unparsed, rather than each cutting another connection (decision 0210).
    const churning = group !== undefined && abandonedHeads(group, now) >= ABANDONED_HEADS_CHURN;
    // One that keeps waiting before its requests, or long in bodies, takes no place of a connection
    // idle only a moment between two requests; one waiting takes no body's either (decision 0218).
    const waiting = group !== undefined && waits.within(group, now) >= caps.headMs;
    const inBodies = group !== undefined && ledger.within(group, now) >= caps.headMs;
    // A probe's place of the reserve goes to another probe only (decision 0220).
    const mayTake = (state: Held | undefined) => probe || !state?.probe;
    return (
      closeEnded(mayTake) ||
      closeLongestIdle(mayTake, waiting || inBodies ? caps.headMs : 0) ||
      (!churning &&
        (closeStalled() ||
          closeLongestWaiting() ||
          (!waiting && (closeLongestBody(group) || closeOldestIncomplete(holding + 1)))))
    );
  };

  /** Counts a request on its connection; false when it is one past the bound and the connection is closed. */
  const admitRequest = (request: IncomingMessage, response: ServerResponse): boolean => {
    const socket = request.socket;
    // Behind one closed for pipelining, in the same read: nothing more is done for it.
    if (socket.destroyed) return false;
    const state = held.get(socket);
    if (!state) return true;
    // New bytes since the last request: what was answered before them, the client may have read.
    if (socket.bytesRead !== state.read) {
      state.read = socket.bytesRead;
      state.answeredInRead = 0;
    }
    if (state.requests + state.answeredInRead >= IN_FLIGHT_MAX) {
      socket.destroy();
      options.onCut?.('pipelined');
      return false;
    }
    const read = state.read;
    const since = Date.now();
    // A request without a body (a GET) spends no time in one, however long its answer takes: nothing
    // to listen for on the pages' path.
    const bodied = 'transfer-encoding' in request.headers || Number(request.headers['content-length'] ?? 0) > 0;
    const countBody = bodied ? bodyCounter(state, since, ledger) : undefined;
    // Its first request: the time it waited for it counts to its address (decision 0218).
    const wait = since - state.accepted;
    if (!state.last && state.group !== undefined && !state.probe && wait >= WAIT_COUNTED_MS)
      waits.add(state.group, wait, since);
    state.requests++;
    state.last = { request, response, since, read: socket.bytesRead };
    idle.delete(socket);
    if (countBody) request.once('end', countBody);
    response.once('finish', () => {
      countBody?.();
      state.requests--;
      if (state.read === read) state.answeredInRead++;
      if (state.requests > 0 || socket.destroyed) return;
      state.readAtIdle = socket.bytesRead;
      state.headSince = Date.now();
      idle.add(socket);
    });
    return true;
  };

  // After listen, so a listen failure (EADDRINUSE) still reaches whoever called listen.
  server.once('listening', () => server.on('error', (error) => options.onAcceptError?.(error)));
  // The application's own listeners (Fastify's) run only for a request the connection may send: one
  // past the bound, or behind it in the same read, gets no routing, no hook, no file opened.
  const listeners = server.listeners('request') as ((request: IncomingMessage, response: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!admitRequest(request, response)) return;
    for (const listener of listeners) listener.call(server, request, response);
  });
  // Node says 100 Continue itself before 'request' when no one listens here: only an admitted request gets it.
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    if (!admitRequest(request, response)) return;
    response.writeContinue();
    for (const listener of listeners) listener.call(server, request, response);
  });
  // Another expectation Node answers 417 itself, with no 'request' at all: counted here first.
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    if (admitRequest(request, response)) response.writeHead(417).end();
  });
  server.prependListener('upgrade', (request: IncomingMessage) => {
    const state = held.get(request.socket);
    if (state) state.upgraded = true;
  });
  server.on('connection', (socket: Socket) => {
    // Every socket gets a listener before anything else can fail on it: a reset before the HTTP
    // parser attaches its own must not be an uncaught exception.
    socket.on('error', () => {});
    const address = socket.remoteAddress;
    // A socket already gone has no address: nothing to count or close.
    if (address === undefined) return socket.destroy();
    const trusted = options.isTrustedProxy(address);
    // Counted by its group: an IPv6 address by its /64, as the socket cap counts it.
    const group = addressGroup(address);
    const probe = PROBE_PEERS.has(address);
    // A probe over its address's cap takes the place of that address's own connection the server
    // has ended or that is idle (decision 0222): a local client holding the cap shuts out no probe.
    if (probe && !trusted && (perAddress.get(group) ?? 0) >= caps.perAddress) closeOwnPlace(group, Date.now());
    const fromAddress = perAddress.get(group) ?? 0;
    const total = probe ? caps.total : caps.total - caps.reserved;
    const now = Date.now();
    const refusal: ConnectionRefusal | undefined =
      !trusted && fromAddress >= caps.perAddress
        ? 'per_address'
        : open >= total && !makeRoom(trusted ? undefined : group, fromAddress, now, probe)
          ? 'total'
          : undefined;
    if (refusal) {
      options.onRefused?.(refusal);
      return socket.destroy();
    }
    open++;
    if (!trusted) perAddress.set(group, fromAddress + 1);
    // A probe's connection is in no class that gives way (decision 0220): its place is one of the
    // reserve, and the rules below would hand it to whoever needs room, one place at a time.
    if (!trusted && !probe) {
      const mine = byAddress.get(group) ?? new Set<Socket>();
      byAddress.set(group, mine.add(socket));
    } else if (!trusted) probes.add(socket);
    // Checked once at the deadline: a connection that has sent anything is in Node's hands by then.
    const silent = setTimeout(() => {
      if (socket.bytesRead === 0) socket.destroy();
    }, caps.firstByteMs).unref();
    let released = false;
    const state: Held = {
      requests: 0,
      read: 0,
      answeredInRead: 0,
      readAtIdle: 0,
      headSince: now,
      accepted: now,
      probe,
      group: trusted ? undefined : group,
      release: () => {
        if (released) return;
        released = true;
        clearTimeout(silent);
        idle.delete(socket);
        ended.delete(socket);
        probes.delete(socket);
        open--;
        if (trusted) return;
        // Closed before a head was whole (it never sent one, or its next one had begun), or before
        // its request's body was, unanswered: a request abandoned (decisions 0202, 0210).
        const last = state.last;
        const head = state.requests === 0 && (!last || socket.bytesRead > state.readAtIdle);
        const body = state.requests > 0 && last && !last.request.complete && !last.response.headersSent;
        if (!state.upgraded && !probe && (head || body)) noteAbandoned(group, Date.now());
        const left = (perAddress.get(group) ?? 1) - 1;
        const mine = byAddress.get(group);
        mine?.delete(socket);
        if (left > 0) perAddress.set(group, left);
        else {
          perAddress.delete(group);
          byAddress.delete(group);
        }
      },
    };
    held.set(socket, state);
    socket.once('close', state.release);
    // Its last byte sent: nothing more will be done for it.
    socket.once('finish', () => {
      if (!released) ended.add(socket);
    });
    stopParsingOnceClosed(socket);
  });
  return { open: () => open };
}

/** llhttp's code for a pause: a callback that answers it stops the parser where it is. */
const HPE_PAUSED = 21;

/**
 * Node parses every request in a read before it looks at the socket again, so a connection closed
 * for pipelining still had the rest of its read parsed: 1,400 requests of a 50 KB read. Node's own
 * callback for a parsed head answers the parser; answering it HPE_PAUSED once the socket is closed
 * stops it there (docs/decisions/0191-nothing-parsed-behind-a-cut.md). The hook is Node's internal
 * `socket.parser`: where it is missing, requests behind the cut are parsed and dropped as before.
 */
function stopParsingOnceClosed(socket: Socket): void {
  const parser = (socket as Socket & { parser?: { onIncoming?: (...args: unknown[]) => unknown } }).parser;
  const onIncoming = parser?.onIncoming;
  if (!parser || typeof onIncoming !== 'function') return;
  parser.onIncoming = (...args: unknown[]) => {
    const next = onIncoming(...args);
    return socket.destroyed ? HPE_PAUSED : next;
  };
}

/**
 * The caps in force: the configured ones, else the defaults. The total defaults to half the
 * descriptors the process may open (the rest for files, upstreams and Redis), at most 10,000; the
 * per-address cap to an eighth of the total, at most 256, so it takes eight addresses to fill it;
 * the probes' reserve to a sixteenth, at most 16; the first byte to 10 s, as headers get; a stalled
 * head to 1 s, many round trips of a slow link; a body to 1 KB a second, under half of what the
 * slowest mobile link (GPRS, 20 kbit/s) uploads (decision 0201).
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
    headMs: configured.headMs ?? 1_000,
    bodyBytesPerSecond: configured.bodyBytesPerSecond ?? 1_024,
  };
}

/**
 * Open WebSockets the server holds at most: a quarter of the connection cap by default (at most
 * 2,000, 4–6 KB of heap each), at most half of it when configured. A socket holding a subscription
 * is never idle, so it never gives its place to a page request as an idle connection does
 * (decision 0178): the rest of the places must stay for pages.
 */
export function socketCap(caps: ConnectionCaps, configured?: number): number {
  if (configured === undefined) return Math.max(1, Math.min(2_000, Math.floor(caps.total / 4)));
  if (configured > caps.total / 2) {
    throw new Error(
      `SOCKETS_MAX (${configured}) must be at most half of CONNECTIONS_MAX (${caps.total}): sockets would take the places pages need`,
    );
  }
  return configured;
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
