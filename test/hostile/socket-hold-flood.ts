import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

/**
 * One socket from each of `addresses` addresses (127.0.`subnet`.x), in a worker thread of the test
 * (the attack's own work must not stall the health monitor), each reopened whenever the server
 * closes it (after `afterCloseMs`) or refuses it (after `afterRefusalMs`): `live` ones send
 * connection_init and hold the subscription `query`, the others never send anything. Posts, as they
 * change, the sockets tried, opened, open (`peak`: the most open at once; a `reset-peak` message
 * starts it again from those open), closed 1013 to make room (`displaced`), and how many addresses
 * had one open. A `stop` message ends every socket.
 */
export interface HoldFloodOrder {
  port: number;
  host: string;
  addresses: number;
  subnet: number;
  live: boolean;
  query: string;
  afterCloseMs: number;
  afterRefusalMs: number;
}

export interface HoldFloodReport {
  tried: number;
  opened: number;
  open: number;
  peak: number;
  displaced: number;
  addresses: number;
}

const { port, host, addresses, subnet, live, query, afterCloseMs, afterRefusalMs } = workerData as HoldFloodOrder;
const report: HoldFloodReport = { tried: 0, opened: 0, open: 0, peak: 0, displaced: 0, addresses: 0 };
const seen = new Set<string>();
const sockets = new Set<WebSocket>();
let stopped = false;

function connect(from: string) {
  if (stopped) return;
  report.tried++;
  const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws', {
    headers: { host },
    localAddress: from,
  });
  sockets.add(socket);
  let opened = false;
  let again = false;
  const retry = (afterMs: number) => {
    if (again) return;
    again = true;
    sockets.delete(socket);
    if (opened) report.open--;
    setTimeout(() => connect(from), afterMs);
  };
  socket.on('error', () => {});
  socket.on('unexpected-response', (_request, response) => {
    response.resume();
    retry(afterRefusalMs);
  });
  socket.on('open', () => {
    opened = true;
    report.opened++;
    seen.add(from);
    report.addresses = seen.size;
    report.open++;
    report.peak = Math.max(report.peak, report.open);
    if (live) socket.send(JSON.stringify({ type: 'connection_init' }));
  });
  socket.on('message', (data) => {
    if (!/"type":"connection_ack"/.test(String(data))) return;
    socket.send(JSON.stringify({ id: 'live', type: 'subscribe', payload: { query } }));
  });
  socket.on('close', (code) => {
    if (code === 1013) report.displaced++;
    retry(afterCloseMs);
  });
}

for (let i = 1; i <= addresses; i++) connect(`127.0.${subnet}.${i}`);
let posted = '';
const poster = setInterval(() => {
  const now = JSON.stringify(report);
  if (now === posted) return;
  posted = now;
  parentPort?.postMessage(report);
}, 20);
parentPort?.on('message', (message: string) => {
  if (message === 'reset-peak') report.peak = report.open;
  if (message !== 'stop') return;
  stopped = true;
  clearInterval(poster);
  for (const socket of sockets) socket.terminate();
  parentPort?.close();
});
