import t from 'tap';
import { shippedBalancer } from '../shipped-balancer.ts';
import { HAPROXY, needs } from '../system/parts.ts';
import { ATTACKER, exchange, hostileCase, request } from './attack.ts';
import { startProductionServer } from './production-server.ts';

/**
 * The thirteenth outside attack, on the production build behind the shipped balancer
 * (`deploy/haproxy.cfg`, addresses swapped for local ones) as compose runs it: the instance trusts
 * the balancer alone (decision 0221). Needs HAProxy: outside CI a missing one is a counted skip.
 */
if (needs(t, [HAPROXY])) {
  const server = await startProductionServer(t, { TRUST_PROXY: '127.0.0.1' });
  const { port } = await shippedBalancer(t, server.port);
  const HOST = `www.halden.co.uk:${port}`;
  const page = () => request(port, '/', [`Host: ${HOST}`], { from: '127.0.33.250' });

  await hostileCase(
    t,
    server,
    '13B. 200 bodies of a declared 100 KB, each 17 KB sent and the rest never, from 20 addresses: the balancer refuses each 413 and the instance holds none of them (it held 4,995)',
    async (t) => {
      const open = await server.metric('vitrine_connections_open');
      const head = `POST /graphql HTTP/1.1\r\nHost: ${HOST}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`;
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          exchange(port, head + 'x'.repeat(17_000), { from: `127.0.34.${(i % 20) + 1}`, timeoutMs: 15_000 }),
        ),
      );
      t.same(new Set(answers.map((answer) => answer.status)), new Set([413]), 'every one refused 413 by the balancer');
      t.ok((await server.metric('vitrine_connections_open')) <= open + 2, 'the instance holds no connection for them');
      t.equal((await page()).status, 200, 'a visitor is served');
    },
  );

  await hostileCase(
    t,
    server,
    '13C. an office of 40 browsers behind one address, six connections each, a page on every one: all answered',
    async (t) => {
      const statuses = await Promise.all(
        Array.from({ length: 240 }, () =>
          request(port, '/', [`Host: ${HOST}`], { from: ATTACKER }).then((a) => a.status),
        ),
      );
      t.equal(
        statuses.filter((status) => status === 200).length,
        240,
        `240 pages answered (${[...new Set(statuses)].join(' ')})`,
      );
    },
  );

  await hostileCase(t, server, "13E. the instance's keep-alive hint does not pass the balancer", async (t) => {
    const answer = await exchange(port, `GET / HTTP/1.1\r\nHost: ${HOST}\r\nConnection: close\r\n\r\n`);
    t.equal(answer.status, 200);
    t.notMatch(answer.headers, /^keep-alive:/im, 'no Keep-Alive from the instance');
  });
}
