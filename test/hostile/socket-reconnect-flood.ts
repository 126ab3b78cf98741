import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

/**
 * Sockets that reconnect after every burst, in a worker thread of the test (the attack's own work
 * must not stall the health monitor): `perAddress` sockets from each of `addresses` loopback
 * addresses (127.0.`subnet`.x) each connect, send `burst` subscribes of `query` once acknowledged,
 * wait for their answers (or their close, or 3 s), and connect again, until `seconds` have passed. Posts
 * how many connections were acknowledged and how many answers came.
 */
export interface ReconnectFloodOrder {
  port: number;
  addresses: number;
  perAddress: number;
  burst: number;
  query: string;
  seconds: number;
  subnet: number;
}

export interface ReconnectFloodReport {
  connections: number;
  answers: number;
}

const { port, addresses, perAddress, burst, query, seconds, subnet } = workerData as ReconnectFloodOrder;
const end = performance.now() + seconds * 1000;
const report: ReconnectFloodReport = { connections: 0, answers: 0 };

/** One connection's life: resolves once its burst is answered or it is closed or refused. */
function round(from: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws', {
      headers: { host: 'localhost' },
      localAddress: from,
    });
    let left = burst;
    // A round the server neither answers nor closes ends anyway, as the attack's did after 3 s.
    const stuck = setTimeout(() => done(), 3_000);
    const done = () => {
      clearTimeout(stuck);
      socket.terminate();
      resolve();
    };
    socket.on('error', () => {});
    socket.on('close', done);
    socket.on('unexpected-response', done);
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
    socket.on('message', (data) => {
      const type = /"type":"(\w+)"/.exec(String(data))?.[1];
      if (type === 'connection_ack') {
        report.connections++;
        for (let i = 0; i < burst; i++)
          socket.send(JSON.stringify({ id: `x${i}`, type: 'subscribe', payload: { query } }));
      } else if (type === 'next' || type === 'error') {
        report.answers++;
        if (--left === 0) done();
      }
    });
  });
}

async function worker(from: string) {
  while (performance.now() < end) await round(from);
}

const workers: Promise<void>[] = [];
for (let a = 0; a < addresses; a++)
  for (let k = 0; k < perAddress; k++) workers.push(worker(`127.0.${subnet}.${a + 1}`));
await Promise.all(workers);
parentPort?.postMessage(report);
