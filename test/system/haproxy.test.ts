import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import t, { type Test } from 'tap';
import { demoServer, HOSTS } from '../helpers.ts';
import { HAPROXY_BIN, shippedBalancer } from '../shipped-balancer.ts';
import { until } from '../until.ts';
import { HAPROXY, needs } from './parts.ts';

/** deploy/haproxy.cfg as HAProxy itself reads it: what `docker compose up` mounts into the balancer. */
t.test('HAProxy accepts its config', async (t) => {
  if (!needs(t, [HAPROXY])) return;
  const check = spawnSync(HAPROXY_BIN, ['-c', '-f', 'deploy/haproxy.cfg'], { encoding: 'utf8' });
  t.equal(check.status, 0, check.stderr);
});

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
  const { port } = await shippedBalancer(t, backendPort);

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
  t.equal(await send(), 200, 'the forged request is answered');
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
    const { port } = await shippedBalancer(t, (app.server.address() as AddressInfo).port);
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

/**
 * A backend that records each request (not the balancer's health checks) with when its head and its
 * body were whole, and the balancer in front of it once it forwards.
 */
async function recordedBalancer(t: Test) {
  const seen: { url: string; headAt: number; bodyAt: number; body: string }[] = [];
  const backend = createServer((request, response) => {
    if (request.url === '/readyz') return response.end('ok');
    const entry = { url: request.url ?? '', headAt: Date.now(), bodyAt: 0, body: '' };
    seen.push(entry);
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      entry.body += chunk;
    });
    request.on('end', () => {
      entry.bodyAt = Date.now();
      // What an instance says of its own keep-alive (server/main.ts keeps an idle client 72 s).
      response.setHeader('keep-alive', 'timeout=72');
      response.end('ok');
    });
  });
  backend.listen(0, '127.0.0.1');
  t.teardown(() => backend.close());
  await once(backend, 'listening');
  const balancer = await shippedBalancer(t, (backend.address() as AddressInfo).port);
  return { ...balancer, seen };
}

/** Sends `parts` to the balancer `gapMs` apart, as a client on a slow link; resolves with what came back and when it closed. */
function trickle(port: number, parts: string[], gapMs: number) {
  return new Promise<{ answer: string; lastSentAt: number }>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let lastSentAt = 0;
    let next = 0;
    const send = () => {
      if (socket.destroyed || next >= parts.length) return;
      socket.write(parts[next++] as string);
      lastSentAt = Date.now();
      if (next < parts.length) pacing = setTimeout(send, gapMs);
    };
    let pacing = setTimeout(send, 0);
    socket.on('data', (chunk) => {
      answer += chunk.toString();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(pacing);
      resolve({ answer, lastSentAt });
    });
  });
}

t.test('the balancer holds slow and many clients itself: no instance spends a connection on them', async (t) => {
  if (!needs(t, [HAPROXY])) return;
  const { port, seen, connectionsFrom } = await recordedBalancer(t);

  await t.test('a request head trickled past 10 s is answered 408 by the balancer, never forwarded', async (t) => {
    const lines = ['GET /trickled HTTP/1.1\r\n', 'Host: www.halden.co.uk\r\n'];
    for (let i = 0; i < 16; i++) lines.push(`X-Slow-${i}: 1\r\n`);
    const { answer } = await trickle(port, [...lines, '\r\n'], 750);
    t.match(answer, /^HTTP\/1\.[01] 408 /, 'the balancer itself says the request took too long');
    t.notOk(
      seen.some((entry) => entry.url === '/trickled'),
      'the instance never saw the request',
    );
  });

  await t.test('a body sent slowly reaches the instance whole, only after its last byte', async (t) => {
    const body = 'x'.repeat(2_000);
    const pieces = Array.from({ length: 8 }, (_, i) => body.slice(i * 250, (i + 1) * 250));
    const { answer, lastSentAt } = await trickle(
      port,
      [
        `POST /slow-body HTTP/1.1\r\nHost: www.halden.co.uk\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
        ...pieces,
      ],
      250,
    );
    t.match(answer, /^HTTP\/1\.[01] 200 /, 'answered once whole');
    const entry = seen.find((e) => e.url === '/slow-body');
    t.equal(entry?.body, body, 'the instance received the whole body');
    t.ok(
      entry && entry.headAt >= lastSentAt,
      'the instance saw the request only after the client had sent its last byte',
    );
  });

  await t.test(
    'a body larger than the balancer holds is refused there, outside the routes that take one',
    async (t) => {
      const head = (path: string, length: number) =>
        `POST ${path} HTTP/1.1\r\nHost: www.halden.co.uk\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`;
      // 17 KB at once, then the rest slowly: the balancer's buffer is full, the body far from whole.
      const slow = (path: string) => trickle(port, [head(path, 20_000), 'x'.repeat(17_000), 'x', 'x'], 1_000);
      const { answer } = await slow('/graphql');
      t.match(answer, /^HTTP\/1\.[01] 413 /, 'the balancer refuses it 413');
      t.notOk(
        seen.some((entry) => entry.url === '/graphql'),
        'the instance never saw it',
      );
      const chunked = await trickle(
        port,
        [
          'POST /graphql HTTP/1.1\r\nHost: www.halden.co.uk\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n',
          '5\r\nhello\r\n',
          '0\r\n\r\n',
        ],
        200,
      );
      t.match(chunked.answer, /^HTTP\/1\.[01] 411 /, 'a chunked body is refused 411 (browsers send a length)');
      t.notOk(
        seen.some((entry) => entry.url === '/graphql'),
        'nor that one',
      );
      const draft = await trickle(port, [head('/cs/api/x/_drafts/y', 20_000), 'x'.repeat(20_000)], 0);
      t.match(draft.answer, /^HTTP\/1\.[01] 200 /, 'a draft of 20 KB still reaches its route');
      t.equal(seen.find((entry) => entry.url === '/cs/api/x/_drafts/y')?.body.length, 20_000, 'whole');
    },
  );

  await t.test(
    "the instances' keep-alive hint does not reach the client, whose idle connection the balancer closes after 5 s",
    async (t) => {
      const res = await fetch(`http://127.0.0.1:${port}/hint`);
      await res.text();
      t.equal(res.status, 200);
      t.equal(res.headers.get('keep-alive'), null, 'no Keep-Alive: timeout=… from an instance');
    },
  );

  await t.test('one address holds at most 256 connections at the balancer; the next is refused unread', async (t) => {
    // An address of its own: the kept-alive connections of the tests before count to 127.0.0.1.
    const from = '127.0.0.77';
    /** A request on a new connection from `from`: whether it was answered or closed unread. */
    const ask = () =>
      new Promise<'answered' | 'refused'>((resolve) => {
        const socket = connect({ port, host: '127.0.0.1', localAddress: from });
        let data = '';
        socket.on('data', (chunk) => {
          data += chunk.toString();
        });
        socket.on('error', () => resolve('refused'));
        socket.on('close', () => resolve(data === '' ? 'refused' : 'answered'));
        socket.write('GET /extra HTTP/1.1\r\nHost: www.halden.co.uk\r\nConnection: close\r\n\r\n');
      });
    const held = await Promise.all(
      Array.from({ length: 256 }, async () => {
        const socket = connect({ port, host: '127.0.0.1', localAddress: from });
        socket.on('error', () => {});
        await once(socket, 'connect');
        return socket;
      }),
    );
    t.teardown(() => {
      for (const socket of held) socket.destroy();
    });
    // Connected is not yet counted: HAProxy accepts from the kernel's queue on two threads, so a
    // request sent now may be counted before the last of the 256, which would be the one refused
    // (3 failures in 49 runs). Wait for the balancer's own count, then ask.
    await until(async () => (await connectionsFrom(from)) === 256, {
      timeout: 20_000,
      every: 50,
      what: 'the balancer to count the 256',
    });
    t.equal(await ask(), 'refused', 'the 257th closed without an answer');
    t.equal(held.filter((socket) => socket.destroyed).length, 0, 'the 256 held are all open: none was refused');
    for (const socket of held) socket.destroy();
    await until(async () => (await ask()) === 'answered', {
      timeout: 20_000,
      every: 50,
      what: 'the address served again once its connections closed',
    });
    t.pass('served again once its connections closed');
  });
});
