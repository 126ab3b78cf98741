import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PIPELINED_UPGRADE, upgradeRefusalResponse } from '../data/upgrade-policy.ts';
import { IN_FLIGHT_MAX } from './connection-caps.ts';

type UpgradeListener = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** How long a refused upgrade's connection lives after its answer, for a client that never closes. */
const REFUSED_GRACE_MS = 2_000;

/** One connection's answers: the one being answered, and the pipelined requests waiting their turn. */
interface Turns {
  current?: ServerResponse;
  waiting: (() => void)[];
}

/**
 * Answers one request at a time per connection, in the order HTTP/1.1 sends them anyway
 * (docs/decisions/0144-one-answer-at-a-time.md). Node hands every pipelined request to the
 * application at once, and an answer that is not at the head of its connection is held whole in
 * memory until the ones before it are sent: four pipelined file answers never read held 410 KB a
 * connection. A pipelined request waits here, before any other work, until the answer before it is
 * done, so only the head answer holds buffers, and it streams with backpressure. Registered before
 * every other hook; a request that is not pipelined (every browser's) never waits.
 *
 * A WebSocket upgrade cannot wait its turn: Node hands it over the moment it is parsed, and a 101
 * written then would put the earlier answers inside the socket's stream. One pipelined behind
 * answers in progress (no browser does it) is refused once they are sent, or, as one request past
 * the bound of connection-caps.ts, closes its connection (decision 0203). The server's upgrade
 * listeners registered by the time the app is ready are called from here, only for an upgrade
 * with nothing before it on its connection.
 */
export function answerInTurn(
  app: FastifyInstance,
  options: {
    /** A request waits for the answer before it: the client pipelines. */
    onWait?: () => void;
    /** An upgrade behind answers in progress is refused after them. */
    onUpgradeRefused?: () => void;
    /** An upgrade past the bound of requests in flight closed its connection. */
    onUpgradeCut?: () => void;
  } = {},
): { waiting(): number } {
  const turns = new WeakMap<Socket, Turns>();
  let waiting = 0;

  const begin = (line: Turns, response: ServerResponse) => {
    line.current = response;
    // 'close' follows 'finish' by a tick, once Node has handed the socket to the next answer; it
    // also comes when the connection is cut under the answer.
    response.once('close', () => {
      line.current = undefined;
      line.waiting.shift()?.();
    });
  };

  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const socket = request.raw.socket;
    let line = turns.get(socket);
    if (!line) {
      const created: Turns = { waiting: [] };
      line = created;
      turns.set(socket, created);
      // A cut or reset connection lets every waiting request go at once: none is left pending.
      socket.once('close', () => {
        for (const wake of created.waiting.splice(0)) wake();
      });
    }
    if (!line.current) {
      begin(line, reply.raw);
      return done();
    }
    const turnsOfSocket = line;
    waiting++;
    options.onWait?.();
    turnsOfSocket.waiting.push(() => {
      waiting--;
      // Its connection is gone: nothing is done for it, no file opened, no hook run.
      if (socket.destroyed) reply.hijack();
      else begin(turnsOfSocket, reply.raw);
      done();
    });
  });

  /** Whether an upgrade on `socket` may be handed on; when not, it is refused or cut here. */
  const upgradeInTurn = (socket: Socket): boolean => {
    const line = turns.get(socket);
    if (!line?.current) return true;
    if (line.waiting.length + 1 >= IN_FLIGHT_MAX) {
      socket.destroy();
      options.onUpgradeCut?.();
      return false;
    }
    options.onUpgradeRefused?.();
    // Node stops reading a socket it hands to 'upgrade' and takes its inactivity timeout off: read
    // on (dropping what comes), so a client that leaves is seen at once, and one that never reads
    // the earlier answers still loses the connection at the timeout.
    socket.once('timeout', () => socket.destroy());
    socket.once('end', () => socket.destroy());
    socket.resume();
    line.waiting.push(() => {
      if (socket.destroyed) return;
      socket.end(upgradeRefusalResponse(PIPELINED_UPGRADE, 10));
      const deadline = setTimeout(() => socket.destroy(), REFUSED_GRACE_MS).unref();
      socket.once('close', () => clearTimeout(deadline));
    });
    return false;
  };

  // Upgrades never pass through Fastify: the listeners registered by now are called from here.
  app.addHook('onReady', (done) => {
    const server = app.server;
    const listeners = server.listeners('upgrade') as UpgradeListener[];
    // Without a listener Node answers an upgrade as a plain request, in its turn like any other.
    if (listeners.length > 0) {
      server.removeAllListeners('upgrade');
      server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
        if (!upgradeInTurn(request.socket)) return;
        for (const listener of listeners) listener.call(server, request, socket, head);
      });
    }
    done();
  });
  return { waiting: () => waiting };
}
