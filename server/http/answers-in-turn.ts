import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

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
 */
export function answerInTurn(
  app: FastifyInstance,
  options: {
    /** A request waits for the answer before it: the client pipelines. */
    onWait?: () => void;
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
  return { waiting: () => waiting };
}
