import t, { type Test } from 'tap';
import WebSocket from 'ws';
import { closedByServer, hostileCase, open, request, upgradeHeaders, worstHealthMs } from './attack.ts';
import { startProductionServer } from './production-server.ts';

/**
 * The third outside attack on issue 32's guards, first finding: sockets that each hold one
 * subscription are never idle, so they never give their place to a page request (decision 0176),
 * and 25 addresses × 20 of them filled `CONNECTIONS_MAX=512`; sockets that never send
 * `connection_init` held a place 33 s. Scaled to a cap of 100 (94 places for others than the probes).
 */
const PER_ADDRESS = 20;
const server = await startProductionServer(t, {
  CONNECTIONS_MAX: '100',
  CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS),
});
const { port } = server;
const HOST = `localhost:${port}`;
const PAGE_HOST = `www.halden.co.uk:${port}`;
const LIVE_PRICE = 'subscription { productUpdated(ids:["4711"], locale:"en-GB") { id price { amount } } }';

/**
 * A page's socket from `from`: resolves once its subscription is held (a query sent after it was
 * answered, and the subscription was not refused), or with how the server turned it away.
 */
function liveSocket(t: Test, from: string): Promise<{ socket: WebSocket; outcome: string }> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws', {
    headers: { host: HOST },
    localAddress: from,
  });
  t.teardown(() => socket.terminate());
  return new Promise((resolve) => {
    const done = (outcome: string) => resolve({ socket, outcome });
    socket.on('error', () => {});
    socket.on('unexpected-response', (_request, response) => done(`refused ${response.statusCode}`));
    socket.on('close', (code) => done(`closed ${code}`));
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string; id?: string };
      if (message.type === 'connection_ack') {
        socket.send(JSON.stringify({ id: 'live', type: 'subscribe', payload: { query: LIVE_PRICE } }));
        socket.send(JSON.stringify({ id: 'after', type: 'subscribe', payload: { query: '{__typename}' } }));
      } else if (message.id === 'live' && message.type === 'error') done('subscription refused');
      else if (message.id === 'after' && message.type === 'next') done('held');
    });
  });
}

await hostileCase(
  t,
  server,
  '69. sockets holding a subscription from many addresses fill the connection cap; pages and a visitor socket still get in',
  async (t) => {
    // 6 addresses × their whole share: more than every place but the probes'.
    const attack = await Promise.all(
      Array.from({ length: 6 * PER_ADDRESS }, (_, i) => liveSocket(t, `127.0.7.${1 + Math.floor(i / PER_ADDRESS)}`)),
    );
    const outcomes: Record<string, number> = {};
    for (const { outcome } of attack) outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    t.ok(outcomes.held, `the attack holds sockets (${JSON.stringify(outcomes)})`);
    const pages = [];
    for (let i = 0; i < 20; i++)
      pages.push((await request(port, '/', [`Host: ${PAGE_HOST}`], { from: '127.0.7.250' })).status);
    t.equal(
      pages.filter((status) => status === 200).length,
      pages.length,
      `${pages.length} page requests, each on a new connection, answered 200 (statuses: ${pages.join(' ')})`,
    );
    const visitor = await liveSocket(t, '127.0.7.251');
    t.equal(visitor.outcome, 'held', "a visitor's live price is held: the heaviest address's oldest socket gave way");
  },
);

await hostileCase(
  t,
  server,
  '70. sockets that never send connection_init are cut within seconds, not 33 s',
  async (t) => {
    const silent = await Promise.all(Array.from({ length: 20 }, () => open(t, port, '127.0.8.1')));
    const started = Date.now();
    for (const socket of silent) socket.write(`GET /graphql HTTP/1.1\r\n${upgradeHeaders(HOST).join('\r\n')}\r\n\r\n`);
    // They never answer the close frame either: only the server's own deadline ends them.
    await Promise.all(silent.map(closedByServer));
    const lived = Date.now() - started;
    // graphql-ws allows 3 s, the close answer 2 s more; 33 s before the fix.
    t.ok(lived < 15_000, `all 20 cut after ${lived} ms`);
  },
);

t.teardown(() => t.comment(`worst /healthcheck over the socket-cap cases: ${Math.round(worstHealthMs())} ms`));
