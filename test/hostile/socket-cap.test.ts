import { Worker } from 'node:worker_threads';
import t, { type Test } from 'tap';
import WebSocket from 'ws';
import { until } from '../until.ts';
import { closedByServer, hostileCase, open, request, upgradeHeaders, worstHealthMs } from './attack.ts';
import { startProductionServer } from './production-server.ts';
import type { HoldFloodOrder, HoldFloodReport } from './socket-hold-flood.ts';

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
  // Prices change often, so a visitor's live price shows whether it is still held.
  GRAPHQL_DEMO_CHANGE_MS: '50',
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

/**
 * Opens a live socket from each address and opens again any that was turned away, until all hold:
 * the sockets of the case before may still be closing, and while they hold places a newcomer at the
 * full cap is refused once the budget of displacements is spent (decision 0211). Places that never
 * come free time this out.
 */
async function holdPlaces(t: Test, addresses: string[]): Promise<void> {
  const held = new Set<string>();
  await until(
    async () => {
      const waiting = addresses.filter((from) => !held.has(from));
      const outcomes = await Promise.all(waiting.map((from) => liveSocket(t, from)));
      outcomes.forEach(({ socket, outcome }, i) => {
        if (outcome === 'held') held.add(waiting[i] as string);
        else socket.terminate();
      });
      return held.size === addresses.length;
    },
    { what: `${addresses.length} live sockets to hold their places (held ${held.size})`, timeout: 30_000, every: 200 },
  );
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

/** The socket cap at `CONNECTIONS_MAX=100`: a quarter. */
const SOCKETS_MAX = 25;
const PRICES =
  'subscription { productUpdated(ids: ["4711","4712","5810","6020","7000","8000","9000","9500","9501","9600"], locale: "en-GB") { id price { amount } } }';

/**
 * The attack of `socket-hold-flood.ts` against this server, in a worker thread: reopened at once
 * after a close and a tenth of a second after a refusal unless told otherwise. `report` follows the
 * worker's; `stop` ends it.
 */
function reconnecting(
  t: Test,
  options: { addresses: number; subnet: number; live: boolean; afterCloseMs?: number; afterRefusalMs?: number },
) {
  const order: HoldFloodOrder = {
    port,
    host: HOST,
    query: LIVE_PRICE,
    afterCloseMs: 0,
    afterRefusalMs: 100,
    ...options,
  };
  const worker = new Worker(new URL('./socket-hold-flood.ts', import.meta.url), { workerData: order });
  const report: HoldFloodReport = { tried: 0, opened: 0, open: 0, peak: 0, displaced: 0, addresses: 0 };
  worker.on('message', (latest: HoldFloodReport) => Object.assign(report, latest));
  const stop = () => {
    worker.postMessage('stop');
    void worker.terminate();
  };
  t.teardown(stop);
  return {
    report,
    stop,
    resetPeak: () => {
      report.peak = report.open;
      worker.postMessage('reset-peak');
    },
  };
}

/**
 * A visitor's live price from `from`: counts the price updates it receives, and how its socket
 * ended if it did (refused, or closed by the server).
 */
function visitorPrices(t: Test, from: string) {
  const seen = { updates: 0, ended: '' };
  const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws', {
    headers: { host: HOST },
    localAddress: from,
  });
  t.teardown(() => socket.terminate());
  socket.on('error', () => {});
  socket.on('unexpected-response', (_request, response) => {
    seen.ended ||= `refused ${response.statusCode}`;
    response.setEncoding('utf8');
    response.on('data', (text: string) => {
      seen.ended += `: ${text.trim()}`;
    });
  });
  socket.on('close', (code) => {
    seen.ended ||= `closed ${code}`;
  });
  socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { type: string; id?: string };
    if (message.type === 'connection_ack')
      socket.send(JSON.stringify({ id: 'prices', type: 'subscribe', payload: { query: PRICES } }));
    else if (message.id === 'prices' && message.type === 'next') seen.updates++;
    else if (message.id === 'prices') seen.ended ||= `subscription ${message.type}`;
  });
  return { seen, close: () => socket.close() };
}

for (const live of [true, false]) {
  await hostileCase(
    t,
    server,
    live
      ? '79. one socket holding a subscription from each of more addresses than the cap holds, reconnecting at once: a visitor gets and keeps its live price'
      : '79b. sockets that never send connection_init from more addresses than the cap holds, reconnecting at once: a visitor gets and keeps its live price',
    async (t) => {
      const attack = reconnecting(t, { addresses: 40, subnet: live ? 11 : 12, live });
      // The attack fills every place and keeps reconnecting the sockets that do not fit.
      // Every address has had a socket: more than the cap holds went round the places.
      await until(() => attack.report.open >= SOCKETS_MAX && attack.report.addresses >= 40, {
        what: 'the attack to fill the socket cap',
        timeout: 30_000,
      });
      const before = attack.report.tried;
      attack.resetPeak();
      const started = Date.now();
      const visitor = visitorPrices(t, '127.0.13.1');
      // Held for 60 price changes (a change every 50 ms: about 3 s) without a close.
      await until(() => visitor.seen.updates >= 60 || visitor.seen.ended, {
        what: "the visitor's price updates",
        timeout: 60_000,
      });
      const tried = attack.report.tried - before;
      const { peak } = attack.report;
      attack.stop();
      visitor.close();
      t.comment(
        `visitor: ${visitor.seen.updates} updates (${visitor.seen.ended || 'open'}) in ${Date.now() - started} ms; meanwhile the attack tried ${tried} sockets, at most ${peak} open (${JSON.stringify(attack.report)})`,
      );
      t.equal(visitor.seen.ended, '', 'the visitor was neither refused nor closed');
      t.ok(visitor.seen.updates >= 60, 'and received 60 price updates');
      t.ok(peak >= SOCKETS_MAX - 1, `the attack held every other place meanwhile (at most ${peak} open)`);
    },
  );
}

/**
 * A visitor's live price from `from` kept as a page keeps it: reconnected a second after it ends.
 * It counts as live up to a second after each price update (prices change every 50 ms), so a close
 * the server has begun but not finished stops it counting at once.
 */
function keptPrice(t: Test, from: string) {
  const kept = { ends: [] as string[], updates: 0, last: 0, liveMs: 0 };
  let stopped = false;
  let current: WebSocket | undefined;
  const connect = () => {
    if (stopped) return;
    const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws', {
      headers: { host: HOST },
      localAddress: from,
    });
    current = socket;
    let over = false;
    const end = (how: string) => {
      if (over) return;
      over = true;
      kept.ends.push(how);
      socket.terminate();
      setTimeout(connect, 1_000);
    };
    socket.on('error', () => {});
    socket.on('unexpected-response', (_request, response) => {
      response.resume();
      end(`refused ${response.statusCode}`);
    });
    socket.on('close', (code) => end(`closed ${code}`));
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string; id?: string };
      if (message.type === 'connection_ack') {
        socket.send(JSON.stringify({ id: 'prices', type: 'subscribe', payload: { query: PRICES } }));
      } else if (message.id === 'prices' && message.type === 'next') {
        const now = performance.now();
        if (kept.last) kept.liveMs += Math.min(now - kept.last, 1_000);
        kept.last = now;
        kept.updates++;
      } else if (message.id === 'prices') end(`subscription ${message.type}`);
    });
  };
  connect();
  t.teardown(() => {
    stopped = true;
    current?.terminate();
  });
  /** The share of the time since `from` (a moment of performance.now()) the price was live. */
  const liveSince = (from: number, held: number) => {
    const now = performance.now();
    return (kept.liveMs - held + Math.min(now - kept.last, 1_000)) / (now - from);
  };
  return { kept, liveSince };
}
/** 1,000 addresses against `SOCKETS_MAX=128` (the outside attack at `CONNECTIONS_MAX=512`), scaled to this cap. */
const SCALED_ADDRESSES = Math.round((1_000 * SOCKETS_MAX) / 128);
/** The outside attack's reconnects: 200 ms after a close, 500 ms after a refusal. */
const AS_OUTSIDE = { afterCloseMs: 200, afterRefusalMs: 500 };

await hostileCase(
  t,
  server,
  "84. a visitor holds its live price while one socket holding a subscription from each of 8× the cap's addresses reconnects at once",
  async (t) => {
    const visitor = keptPrice(t, '127.0.15.1');
    await until(() => visitor.kept.updates > 0, { what: "the visitor's first price", timeout: 30_000 });
    const started = performance.now();
    const heldBefore = visitor.kept.liveMs;
    const attack = reconnecting(t, { addresses: SCALED_ADDRESSES, subnet: 14, live: true, ...AS_OUTSIDE });
    // Every address has had a socket: the attack went round the places; then 60 more price changes.
    await until(() => attack.report.addresses >= SCALED_ADDRESSES, {
      what: 'every attacking address to have held a socket',
      timeout: 60_000,
    });
    const updates = visitor.kept.updates;
    await until(() => visitor.kept.updates >= updates + 60, {
      what: 'the visitor to see 60 more price changes',
      timeout: 60_000,
    }).catch((error: unknown) => {
      // Say how the visitor's sockets ended (closed, refused), not only that it waited.
      throw new Error(`${(error as Error).message}; its sockets ended: ${visitor.kept.ends.join(', ') || 'never'}`);
    });
    const share = visitor.liveSince(started, heldBefore);
    const { peak, tried, opened, displaced } = attack.report;
    attack.stop();
    t.comment(
      `visitor live ${(100 * share).toFixed(1)}% of ${Math.round(performance.now() - started)} ms (ended: ${visitor.kept.ends.join(', ') || 'never'}); attack tried ${tried}, opened ${opened}, displaced ${displaced}, at most ${peak} open`,
    );
    t.ok(share >= 0.95, `the visitor held its live price ${(100 * share).toFixed(1)}% of the attack (at least 95%)`);
    t.ok(peak >= SOCKETS_MAX - 1, `the attack held every other place meanwhile (at most ${peak} open)`);
  },
);

await hostileCase(
  t,
  server,
  "85. one socket holding a subscription from each of 8× the cap's addresses, reconnecting at once, leaves room for pages: a new address gets 20 of 20",
  async (t) => {
    const attack = reconnecting(t, { addresses: SCALED_ADDRESSES, subnet: 16, live: true, ...AS_OUTSIDE });
    await until(() => attack.report.open >= SOCKETS_MAX - 1 && attack.report.tried >= 2 * SCALED_ADDRESSES, {
      what: 'the attack to fill the socket cap and retry every address twice',
      timeout: 60_000,
    });
    const pages = [];
    for (let i = 0; i < 20; i++)
      pages.push((await request(port, '/', [`Host: ${PAGE_HOST}`], { from: '127.0.17.1' })).status);
    const { report } = attack;
    // Once in five runs of the suite, pages went unanswered here: say which cap closed them (or shed them).
    if (pages.some((status) => status !== 200)) {
      const samples = (await server.metrics())
        .split('\n')
        .filter((line) => /^vitrine_(connections|websocket|shed)_/.test(line));
      t.comment(`connection and socket metrics while pages went unanswered:\n${samples.join('\n')}`);
    }
    attack.stop();
    t.comment(`attack meanwhile: tried ${report.tried}, opened ${report.opened}, displaced ${report.displaced}`);
    t.equal(
      pages.filter((status) => status === 200).length,
      pages.length,
      `${pages.length} page requests, each on a new connection, answered 200 (statuses: ${pages.join(' ')})`,
    );
  },
);

/** Fresh addresses, one at a time: more than the outside attack's 15 against 128 scaled to this cap (3), so a draw is likelier to fall on the visitor. */
const FRESH = 10;

await hostileCase(
  t,
  server,
  '88. with every other place held, a visitor arriving last keeps its live price while fresh addresses keep coming, and is never refused',
  async (t) => {
    // Every place but one held by addresses that never give way of their own accord.
    await holdPlaces(
      t,
      Array.from({ length: SOCKETS_MAX - 1 }, (_, i) => `127.0.19.${i + 1}`),
    );
    const visitor = keptPrice(t, '127.0.20.1');
    await until(() => visitor.kept.updates > 0, { what: "the visitor's first price", timeout: 30_000 });
    const started = performance.now();
    const heldBefore = visitor.kept.liveMs;
    // A fresh address every 40 price changes (2 s; the outside attack's came every 3 s), or, with
    // the visitor kept out, every three of its attempts; after the last, 40 more.
    const fresh: string[] = [];
    for (let i = 0; i <= FRESH; i++) {
      const updates = visitor.kept.updates;
      const ends = visitor.kept.ends.length;
      await until(() => visitor.kept.updates >= updates + 40 || visitor.kept.ends.length >= ends + 3, {
        what: 'the visitor to see 40 more price changes or to be turned away three times',
        timeout: 60_000,
      });
      if (i === FRESH) break;
      fresh.push((await liveSocket(t, `127.0.21.${i + 1}`)).outcome);
    }
    const share = visitor.liveSince(started, heldBefore);
    t.comment(
      `visitor live ${(100 * share).toFixed(1)}% of ${Math.round(performance.now() - started)} ms (ended: ${visitor.kept.ends.join(', ') || 'never'}); fresh addresses: ${fresh.join(', ')}`,
    );
    // Live sockets give way to fresh addresses 2 a minute at this cap (decision 0211), shared with
    // the cases before: the ones within it take a place, the next are refused.
    t.ok(
      fresh.every((outcome) => outcome === 'held' || outcome === 'refused 503'),
      'each fresh address took a place within the budget of displacements, or was refused',
    );
    t.notOk(
      visitor.kept.ends.some((end) => end.startsWith('refused')),
      'the visitor was never refused',
    );
    t.ok(share >= 0.9, `the visitor held its live price ${(100 * share).toFixed(1)}% of the attack (at least 90%)`);
  },
);

/**
 * Fresh addresses against two visitors among holders (the outside attack: 126 holders of 128, then
 * 650 fresh addresses at 10 a second): more than the cap holds, each one a draw.
 */
const FLOOD = 4 * SOCKETS_MAX;

await hostileCase(
  t,
  server,
  '96. with every other place held, two visitors keep their live price while fresh addresses come fast, and are never locked out',
  async (t) => {
    await holdPlaces(
      t,
      Array.from({ length: SOCKETS_MAX - 2 }, (_, i) => `127.0.22.${i + 1}`),
    );
    const visitors = [keptPrice(t, '127.0.23.1'), keptPrice(t, '127.0.23.2')];
    // Past their first second: a second's price changes.
    await until(() => visitors.every((visitor) => visitor.kept.updates > 20), {
      what: "the visitors' first prices",
      timeout: 30_000,
    });
    const started = performance.now();
    const heldBefore = visitors.map((visitor) => visitor.kept.liveMs);
    // One after another, each as soon as the last was answered; then 40 more price changes each.
    const fresh: Record<string, number> = {};
    for (let i = 0; i < FLOOD; i++) {
      const { outcome } = await liveSocket(t, `127.0.${24 + Math.floor(i / 250)}.${(i % 250) + 1}`);
      fresh[outcome] = (fresh[outcome] ?? 0) + 1;
    }
    const updates = visitors.map((visitor) => visitor.kept.updates);
    await until(() => visitors.every((visitor, i) => visitor.kept.updates >= (updates[i] ?? 0) + 40), {
      what: 'each visitor to see 40 more price changes',
      timeout: 120_000,
    });
    const shares = visitors.map((visitor, i) => visitor.liveSince(started, heldBefore[i] ?? 0));
    t.comment(
      `visitors live ${shares.map((share) => `${(100 * share).toFixed(1)}%`).join(', ')} of ${Math.round(performance.now() - started)} ms (ended: ${visitors.map((visitor) => visitor.kept.ends.join(', ') || 'never').join('; ')}); fresh addresses: ${JSON.stringify(fresh)}`,
    );
    for (const [i, visitor] of visitors.entries()) {
      t.notOk(
        visitor.kept.ends.some((end) => end.startsWith('refused')),
        `visitor ${i + 1} was never refused`,
      );
      t.ok(
        (shares[i] ?? 0) >= 0.9,
        `visitor ${i + 1} held its live price ${(100 * (shares[i] ?? 0)).toFixed(1)}% of the attack (at least 90%)`,
      );
    }
  },
);

t.teardown(() => t.comment(`worst /healthcheck over the socket-cap cases: ${Math.round(worstHealthMs())} ms`));
