import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

/**
 * Sockets flooding subscribes, in a worker thread of the test: the attack's own sending must not
 * stall the health monitor in the test's thread. `perAddress` sockets from each of `addresses`
 * loopback addresses (127.0.`subnet`.x) send `messages` subscribes of `query` once acknowledged,
 * all at once or `paced` (the first `atOnce`, then `perSecond`). The worker posts `started` once
 * every socket is sending; once every subscribe is answered or its socket closed (with `sentinel`,
 * once each socket's final `{__typename}` is answered: subscriptions held are never answered), it
 * reports the close codes, answers and refusals by code, and (unless `hold`) ends the sockets.
 */
export interface FloodOrder {
  port: number;
  addresses: number;
  perAddress: number;
  messages: number;
  query: string;
  subnet?: number;
  paced?: { atOnce: number; perSecond: number };
  sentinel?: boolean;
  hold?: boolean;
}

export interface FloodReport {
  closes: (number | null)[];
  answers: number;
  refusals: Record<string, number>;
}

export type FloodMessage = { type: 'started' } | { type: 'report'; report: FloodReport };

const { port, addresses, perAddress, messages, query, subnet = 3, paced, sentinel, hold } = workerData as FloodOrder;
const frames = Array.from({ length: messages }, (_, i) =>
  JSON.stringify({ id: `x${i}`, type: 'subscribe', payload: { query } }),
);
if (sentinel) frames.push(JSON.stringify({ id: 'sentinel', type: 'subscribe', payload: { query: '{__typename}' } }));
const refusals: Record<string, number> = {};
let sending = 0;
const clients: { socket: WebSocket; answers: number; closed: number | null; done: boolean }[] = [];

function send(socket: WebSocket) {
  if (++sending === clients.length) parentPort?.postMessage({ type: 'started' } satisfies FloodMessage);
  const atOnce = paced?.atOnce ?? frames.length;
  for (const frame of frames.slice(0, atOnce)) socket.send(frame);
  let next = atOnce;
  if (next >= frames.length || !paced) return;
  const timer = setInterval(() => {
    if (socket.readyState !== socket.OPEN || next >= frames.length) return clearInterval(timer);
    socket.send(frames[next++] as string);
  }, 1000 / paced.perSecond);
}

for (let a = 0; a < addresses; a++) {
  for (let k = 0; k < perAddress; k++) {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws', {
      headers: { host: 'localhost' },
      localAddress: `127.0.${subnet}.${a + 1}`,
    });
    const client = { socket, answers: 0, closed: null as number | null, done: false };
    clients.push(client);
    socket.on('error', () => {});
    socket.on('close', (code) => {
      client.closed = code;
    });
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
    socket.on('message', (data) => {
      const text = String(data);
      const type = /"type":"(\w+)"/.exec(text)?.[1];
      if (type === 'connection_ack') return send(socket);
      if (type !== 'next' && type !== 'error') return;
      client.answers++;
      if (sentinel && /"id":"sentinel"/.test(text)) client.done = true;
      if (type === 'error') {
        const code = /"code":"(\w+)"/.exec(text)?.[1] ?? 'other';
        refusals[code] = (refusals[code] ?? 0) + 1;
      }
    });
  }
}
const done = setInterval(() => {
  if (!clients.every((c) => c.closed !== null || (sentinel ? c.done : c.answers >= messages))) return;
  clearInterval(done);
  const report: FloodReport = {
    closes: clients.map((c) => c.closed),
    answers: clients.reduce((sum, c) => sum + c.answers, 0),
    refusals,
  };
  if (!hold) for (const { socket } of clients) socket.terminate();
  parentPort?.postMessage({ type: 'report', report } satisfies FloodMessage);
}, 50);
