import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { createHttpClient, type HttpClient, HttpError, type HttpMethod } from './client.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse, attempt: number) => void;

/** A real server whose handler decides per path; it records every request it receives. */
async function startServer(t: Test, handler: Handler) {
  const seen: Seen[] = [];
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    handler(req, res, seen.filter((s) => s.url === req.url && s.method === req.method).length);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { origin, seen };
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function client(t: Test, baseUrl: string, timeouts?: Parameters<typeof createHttpClient>[0]['timeouts']) {
  const c: HttpClient = createHttpClient({ baseUrl, timeouts });
  t.teardown(() => c.close());
  return c;
}

const RETRY_STATUSES = [408, 409, 425, 429, 500, 502, 503, 504];
const BODY_METHODS: HttpMethod[] = ['POST', 'PUT', 'PATCH', 'DELETE'];

t.test('bodyless methods retry once on each retry status, then succeed', async (t) => {
  const { origin, seen } = await startServer(t, (req, res, attempt) => {
    const status = Number(req.url?.split('/')[2]);
    if (attempt === 1) json(res, status, { error: 'try again' });
    else json(res, 200, { ok: true, attempt });
  });
  const c = client(t, origin);
  for (const status of RETRY_STATUSES) {
    t.same(await c.request('GET', `/flaky/${status}`), { ok: true, attempt: 2 }, `GET ${status} retried`);
    t.equal(seen.filter((s) => s.url === `/flaky/${status}`).length, 2, `GET ${status}: two requests`);
  }
  t.same(await c.request('OPTIONS', '/flaky/503'), { ok: true, attempt: 2 }, 'OPTIONS retried');
  t.equal(await c.request('HEAD', '/flaky/503'), undefined, 'HEAD retried, empty body is undefined');
  t.equal(seen.filter((s) => s.method === 'HEAD').length, 2);
});

t.test('a retry happens once only; the error carries method, url, status and status text', async (t) => {
  const { origin, seen } = await startServer(t, (_req, res) => json(res, 503, { error: 'down' }));
  const c = client(t, origin);
  const err = await c.request('GET', '/down').catch((e: unknown) => e);
  t.ok(err instanceof HttpError);
  t.match(err, {
    code: 'HTTP_STATUS',
    method: 'GET',
    url: `${origin}/down`,
    status: 503,
    statusText: 'Service Unavailable',
    data: { error: 'down' },
    message: `GET ${origin}/down 503 Service Unavailable`,
  });
  t.equal(seen.length, 2);
});

t.test('methods with a body are never retried', async (t) => {
  const { origin, seen } = await startServer(t, (_req, res) => json(res, 503, {}));
  const c = client(t, origin);
  for (const method of BODY_METHODS) {
    await t.rejects(c.request(method, '/write', { body: { a: 1 } }), { code: 'HTTP_STATUS', method, status: 503 });
  }
  t.same(
    seen.map((s) => s.method),
    BODY_METHODS,
  );
});

t.test('statuses outside the retry list are not retried', async (t) => {
  const { origin, seen } = await startServer(t, (req, res) => {
    res.writeHead(Number(req.url?.slice(1)));
    res.end('not json at all');
  });
  const c = client(t, origin);
  for (const status of [400, 401, 404, 501]) {
    await t.rejects(c.request('GET', `/${status}`), {
      code: 'HTTP_STATUS',
      status,
      method: 'GET',
      url: `${origin}/${status}`,
      data: 'not json at all',
    });
  }
  t.equal(seen.length, 4);
});

t.test('JSON bodies are serialised for POST, PUT, PATCH and DELETE', async (t) => {
  const { origin, seen } = await startServer(t, (_req, res) => json(res, 200, { saved: true }));
  const c = client(t, origin);
  for (const method of BODY_METHODS) {
    t.same(await c.request(method, '/items', { body: { name: 'x', n: [1, 2] } }), { saved: true });
  }
  for (const s of seen) {
    t.equal(s.body, '{"name":"x","n":[1,2]}', `${s.method} body`);
    t.equal(s.headers['content-type'], 'application/json', `${s.method} content type`);
  }
  await t.rejects(c.request('GET', '/items', { body: {} }), TypeError, 'a GET body is a programming error');
  t.equal(seen.length, 4);
});

t.test('base URL, path, query and headers', async (t) => {
  const { origin, seen } = await startServer(t, (_req, res) => json(res, 200, []));
  const c = createHttpClient({ baseUrl: `${origin}/api/`, headers: { 'X-Site': 'a', Accept: 'text/plain' } });
  t.teardown(() => c.close());
  await c.request('GET', '/items', { query: { q: 'a b&c', n: 2, flag: true, skipped: undefined } });
  await c.request('GET', 'items/7', { headers: { 'x-site': 'b' } });
  await c.request('GET', '/plain');
  t.same(
    seen.map((s) => s.url),
    ['/api/items?q=a+b%26c&n=2&flag=true', '/api/items/7', '/api/plain'],
  );
  t.equal(seen[0]?.headers['x-site'], 'a');
  t.equal(seen[0]?.headers.accept, 'text/plain', 'configured headers override the default accept');
  t.equal(seen[1]?.headers['x-site'], 'b', 'per-request headers override configured ones');
  t.equal(c.url('/x', { a: '1' }), `${origin}/api/x?a=1`);
});

t.test('an empty 204 body is undefined', async (t) => {
  const { origin } = await startServer(t, (_req, res) => {
    res.writeHead(204);
    res.end();
  });
  t.equal(await client(t, origin).request('DELETE', '/items/1'), undefined);
});

t.test('a body that is not JSON is a clear error naming the URL, not retried', async (t) => {
  const { origin, seen } = await startServer(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('<html>oops</html>');
  });
  await t.rejects(client(t, origin).request('GET', '/garbage'), {
    name: 'HttpError',
    code: 'HTTP_INVALID_JSON',
    url: `${origin}/garbage`,
    status: 200,
    message: /^GET http:\/\/127\.0\.0\.1:\d+\/garbage 200: response body is not valid JSON \(/,
  });
  t.equal(seen.length, 1);
});

t.test('an answer that would change a prototype is refused', async (t) => {
  const { origin } = await startServer(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"a":{"__proto__":{"polluted":true}}}');
  });
  await t.rejects(client(t, origin).request('GET', '/proto'), { code: 'HTTP_INVALID_JSON', message: /prototype/ });
  t.equal(({} as Record<string, unknown>).polluted, undefined);
});

// undici checks these timeouts on a coarse (about one second) clock, so these tests take a few seconds.
t.test('a server that never answers times out; GET is retried once, POST is not', async (t) => {
  const { origin, seen } = await startServer(t, () => {});
  const c = client(t, origin, { headersMs: 80 });
  await t.rejects(c.request('GET', '/slow'), { code: 'HTTP_TIMEOUT', method: 'GET', url: `${origin}/slow` });
  await t.rejects(c.request('POST', '/slow', { body: {} }), { code: 'HTTP_TIMEOUT', method: 'POST' });
  t.same(
    seen.map((s) => s.method),
    ['GET', 'GET', 'POST'],
  );
});

t.test('a body that stalls times out', async (t) => {
  const { origin } = await startServer(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"partial":');
  });
  await t.rejects(client(t, origin, { bodyMs: 80 }).request('GET', '/stall'), { code: 'HTTP_TIMEOUT' });
});

t.test('connection refused is a network error', async (t) => {
  // Take a free port, then release it, so nothing listens there.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  const err = await client(t, `http://127.0.0.1:${port}`)
    .request('GET', '/x')
    .catch((e: unknown) => e);
  t.match(err, { name: 'HttpError', code: 'HTTP_NETWORK', method: 'GET', url: `http://127.0.0.1:${port}/x` });
  t.match((err as Error).message, /ECONNREFUSED/);
});

t.test('a connection dropped mid-request is a network error; GET retries it, POST does not', async (t) => {
  const { origin, seen } = await startServer(t, (req, res, attempt) => {
    if (attempt === 1) req.socket.destroy();
    else json(res, 200, { ok: true });
  });
  const c = client(t, origin);
  t.same(await c.request('GET', '/drop'), { ok: true });
  await t.rejects(c.request('POST', '/drop', { body: {} }), { code: 'HTTP_NETWORK', method: 'POST' });
  t.same(
    seen.map((s) => s.method),
    ['GET', 'GET', 'POST'],
  );
});

t.test("the caller's abort passes through unwrapped and is not retried", async (t) => {
  const controller = new AbortController();
  const { origin, seen } = await startServer(t, (_req, res, attempt) => {
    // The visitor leaves while the first answer is being made; a retry would be answered at once.
    if (attempt === 1) controller.abort(new Error('visitor left'));
    else json(res, 200, {});
  });
  const pending = client(t, origin).request('GET', '/slow', { signal: controller.signal });
  await t.rejects(pending, { message: 'visitor left' });
  t.equal(seen.length, 1, 'no retry after the abort');
});

t.test('a status error carries the Retry-After the server sent, in ms; seconds or a date', async (t) => {
  const { origin } = await startServer(t, (req, res) => {
    const value = decodeURIComponent(req.url?.slice(1) ?? '');
    res.writeHead(429, value ? { 'retry-after': value } : {});
    res.end();
  });
  const c = client(t, origin);
  const waited = async (value: string) =>
    ((await c.request('GET', `/${encodeURIComponent(value)}`).catch((e: unknown) => e)) as HttpError).retryAfterMs;
  t.equal(await waited('30'), 30_000);
  t.equal(await waited(''), undefined, 'absent');
  t.equal(await waited('soon'), undefined, 'unreadable');
  t.equal(await waited('Thu, 01 Jan 1970 00:00:00 GMT'), 0, 'a date in the past is now');
  const later = await waited(new Date(Date.now() + 120_000).toUTCString());
  t.ok(later !== undefined && later > 100_000 && later <= 120_000, 'a date two minutes ahead');
});
