import { Writable } from 'node:stream';
import Fastify from 'fastify';
import pino from 'pino';
import t from 'tap';
import { lazyChildLogger } from './request-logger.ts';

/** A Fastify app logging into `lines` at `level`, with lazy request loggers, and how many children its logger made. */
async function app(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const logger = pino({ level }, stream);
  const server = Fastify({ loggerInstance: logger, disableRequestLogging: true, childLoggerFactory: lazyChildLogger });
  server.get('/quiet', async () => 'ok');
  server.get('/warns', async (request) => {
    request.log.warn({ detail: 1 }, 'something to say');
    request.log.debug('below the level');
    return 'ok';
  });
  await server.ready();
  const made = { children: 0 };
  const child = server.log.child.bind(server.log);
  server.log.child = ((...args: Parameters<typeof child>) => {
    made.children++;
    return child(...args);
  }) as typeof server.log.child;
  return { server, lines, made };
}

t.test('a request that logs nothing makes no child logger', async (t) => {
  const { server, made } = await app('info');
  t.teardown(() => server.close());
  for (let i = 0; i < 3; i++) t.equal((await server.inject({ url: '/quiet' })).statusCode, 200);
  t.equal(made.children, 0);
});

t.test("a request's lines carry its id, once it logs; lines below the level are dropped", async (t) => {
  const { server, lines, made } = await app('info');
  t.teardown(() => server.close());
  const response = await server.inject({ url: '/warns' });
  t.equal(response.statusCode, 200);
  t.equal(made.children, 1);
  t.equal(lines.length, 1);
  t.match(lines[0], { level: 40, msg: 'something to say', detail: 1, reqId: String });
});
