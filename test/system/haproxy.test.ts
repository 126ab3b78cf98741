import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { freePort } from '../e2e/server.ts';
import { demoServer, HOSTS } from '../helpers.ts';
import { until } from '../until.ts';
import { HAPROXY, needs } from './parts.ts';

const HAPROXY_BIN = '/usr/sbin/haproxy';
const haproxy = readFileSync('deploy/haproxy.cfg', 'utf8');

/** deploy/haproxy.cfg as HAProxy itself reads it: what `docker compose up` mounts into the balancer. */
t.test('HAProxy accepts its config', async (t) => {
  if (!needs(t, [HAPROXY])) return;
  const check = spawnSync(HAPROXY_BIN, ['-c', '-f', 'deploy/haproxy.cfg'], { encoding: 'utf8' });
  t.equal(check.status, 0, check.stderr);
});

/** The shipped config, listening on a free local port, with every server pointed at `backendPort`. */
async function shippedBalancer(t: Test, backendPort: number): Promise<number> {
  const port = await freePort();
  const config = haproxy
    .replace(/^ {2}bind :8080$/m, `  bind 127.0.0.1:${port}`)
    .replace(/ resolvers docker init-addr libc,none/, '')
    .replace(/^resolvers docker\n.*\n/m, '')
    .replace(/server (app\d) app\d:3000/g, `server $1 127.0.0.1:${backendPort}`);
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-haproxy-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'haproxy.cfg'), config);
  const balancer = spawn(HAPROXY_BIN, ['-db', '-f', join(dir, 'haproxy.cfg')], { stdio: 'ignore' });
  t.teardown(() => balancer.kill('SIGKILL'));
  return port;
}

t.test('the balancer sets the forwarding headers it owns and drops the ones a visitor sends', async (t) => {
  if (!needs(t, [HAPROXY])) return;
  // The shipped config, pointed at a local backend that records what it receives.
  const seen: IncomingHttpHeaders[] = [];
  const backend = createServer((request, response) => {
    if (request.url !== '/readyz') seen.push(request.headers);
    response.end('ok');
  });
  backend.listen(0, '127.0.0.1');
  t.teardown(() => backend.close());
  await once(backend, 'listening');
  const backendPort = (backend.address() as AddressInfo).port;
  const port = await shippedBalancer(t, backendPort);

  // A raw request, so the duplicated and forged headers reach the balancer as sent.
  const send = () =>
    new Promise<number>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let data = '';
      socket.on('data', (chunk) => {
        data += chunk.toString();
      });
      socket.on('close', () => resolve(Number(data.split(' ')[1]) || 0));
      socket.on('error', () => resolve(0));
      socket.write(
        [
          'GET /cs/x HTTP/1.1',
          'Host: www.halden.co.uk',
          'X-Forwarded-For: 203.0.113.9',
          'X-Forwarded-For: 198.51.100.7',
          'X-Forwarded-Host: evil.example',
          'X-Forwarded-Proto: https',
          'X-Forwarded-Port: 443',
          'X-Real-IP: 203.0.113.9',
          'Forwarded: for=203.0.113.9;host=evil.example;proto=https',
          'X-Request-Id: forged-request-id',
          'Connection: close',
          '',
          '',
        ].join('\r\n'),
      );
    });
  await until(async () => (await send()) === 200, { timeout: 20_000, every: 50, what: 'the balancer forwards' });
  const headers = seen.at(-1) ?? {};
  t.equal(headers.host, 'www.halden.co.uk', 'Host goes through');
  t.equal(headers['x-forwarded-for'], '127.0.0.1', 'X-Forwarded-For is the address the balancer saw, set not appended');
  t.equal(headers['x-forwarded-proto'], 'http', 'X-Forwarded-Proto is what the balancer was reached by');
  for (const dropped of ['x-forwarded-host', 'x-forwarded-port', 'x-real-ip', 'forwarded'])
    t.equal(headers[dropped], undefined, `${dropped} from a visitor is dropped`);
  t.not(headers['x-request-id'], 'forged-request-id', 'the visitor does not choose the request id');
  t.match(headers['x-request-id'], /^[0-9a-f-]{36}$/, 'the balancer gives every request its own');
});

t.test(
  'behind the shipped balancer a visitor forging X-Forwarded-For or X-Request-Id walks around nothing',
  async (t) => {
    if (!needs(t, [HAPROXY])) return;
    // The app as compose runs it: it trusts the balancer (here on loopback) alone.
    const app = await demoServer({ trustProxy: '127.0.0.1', rateLimits: { graphql: 2 } });
    t.teardown(() => app.close());
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = await shippedBalancer(t, (app.server.address() as AddressInfo).port);
    const post = (forgedFor: string) =>
      fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: {
          host: HOSTS.uk,
          'content-type': 'application/json',
          'x-forwarded-for': forgedFor,
          'x-request-id': 'forged-request-id',
        },
        body: JSON.stringify({ query: '{ __typename }' }),
      }).then(async (res) => ({ status: res.status, id: res.headers.get('x-request-id'), body: await res.text() }));
    await until(async () => (await fetch(`http://127.0.0.1:${port}/healthcheck`).catch(() => null))?.status === 200, {
      timeout: 20_000,
      every: 50,
      what: 'the balancer forwards',
    });
    const answers = [];
    for (const forged of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) answers.push(await post(forged));
    t.same(
      answers.map((a) => a.status),
      [200, 200, 429],
      'a new forged address each time still counts as the one the balancer saw',
    );
    for (const { id } of answers) t.not(id, 'forged-request-id', 'the request id is the balancer’s');
  },
);
