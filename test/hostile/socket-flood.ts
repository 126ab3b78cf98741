import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

/**
 * Sockets flooding subscribes, in a worker thread of the test: the attack's own sending must not
 * stall the health monitor in the test's thread. `perAddress` sockets from each of `addresses`
 * loopback addresses send `messages` subscribes of `query` once acknowledged; once every one is
 * answered or its socket closed, the worker reports the close codes and answers and ends.
 */
export interface FloodOrder {
  port: number;
  addresses: number;
  perAddress: number;
  messages: number;
  query: string;
}

export interface FloodReport {
  closes: (number | null)[];
  answers: number;
}

const { port, addresses, perAddress, messages, query } = workerData as FloodOrder;
const frames = Array.from({ length: messages }, (_, i) =>
  JSON.stringify({ id: `x${i}`, type: 'subscribe', payload: { query } }),
);
const clients: { socket: WebSocket; answers: number; closed: number | null }[] = [];
for (let a = 0; a < addresses; a++) {
  for (let k = 0; k < perAddress; k++) {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws', {
      headers: { host: 'localhost' },
      localAddress: `127.0.3.${a + 1}`,
    });
    const client = { socket, answers: 0, closed: null as number | null };
    clients.push(client);
    socket.on('error', () => {});
    socket.on('close', (code) => {
      client.closed = code;
    });
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
    socket.on('message', (data) => {
      const type = /"type":"(\w+)"/.exec(String(data))?.[1];
      if (type === 'connection_ack') for (const frame of frames) socket.send(frame);
      else if (type === 'next' || type === 'error') client.answers++;
    });
  }
}
const done = setInterval(() => {
  if (!clients.every((c) => c.closed !== null || c.answers >= messages)) return;
  clearInterval(done);
  const report: FloodReport = {
    closes: clients.map((c) => c.closed),
    answers: clients.reduce((sum, c) => sum + c.answers, 0),
  };
  for (const { socket } of clients) socket.terminate();
  parentPort?.postMessage(report);
}, 50);
