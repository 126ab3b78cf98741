import t from 'tap';
import { ConfigError } from '../errors.ts';
import { readEnv } from './env.ts';

t.test('an empty environment gets the defaults of the contract', async (t) => {
  const env = readEnv({});
  t.equal(env.PORT, 3000);
  t.equal(env.HOST, '127.0.0.1');
  t.equal(env.SITES_CONFIG, 'config/sites.json');
  t.equal(env.CONTENT_DIR, 'content');
  t.equal(env.NODE_ENV, 'development');
  t.equal(env.FORCE_HOST, undefined);
  t.equal(env.METRICS_PORT, 9464, 'metrics on their own port by default');
  t.equal(env.METRICS_HOST, '127.0.0.1', 'and on loopback');
});

t.test('METRICS_HOST does not follow HOST: a public listener does not open the metrics to all', async (t) => {
  t.equal(readEnv({ HOST: '0.0.0.0' }).METRICS_HOST, '127.0.0.1');
  t.equal(readEnv({ HOST: '0.0.0.0', METRICS_HOST: '10.0.0.5' }).METRICS_HOST, '10.0.0.5');
});

t.test('METRICS_PORT: 0 turns metrics off; the public port is refused', async (t) => {
  t.equal(readEnv({ METRICS_PORT: '0' }).METRICS_PORT, 0);
  t.equal(readEnv({ METRICS_PORT: '9100', PORT: '8080' }).METRICS_PORT, 9100);
  t.throws(() => readEnv({ METRICS_PORT: '8080', PORT: '8080' }), {
    message: /METRICS_PORT must differ from PORT \(8080\)/,
  });
  t.throws(() => readEnv({ METRICS_PORT: '3000' }), ConfigError, 'the default PORT counts too');
  t.equal(readEnv({ METRICS_PORT: '0', PORT: '0' }).METRICS_PORT, 0, 'both 0: off, no clash');
});

t.test('given values are used, PORT as a number', async (t) => {
  const env = readEnv({
    PORT: '8080',
    HOST: '0.0.0.0',
    SITES_CONFIG: '/etc/vitrine/sites.json',
    CONTENT_DIR: '/srv/content',
    FORCE_HOST: 'www.halden.de',
    NODE_ENV: 'production',
  });
  t.same(
    { ...env },
    {
      PORT: 8080,
      HOST: '0.0.0.0',
      SITES_CONFIG: '/etc/vitrine/sites.json',
      CONTENT_DIR: '/srv/content',
      FORCE_HOST: 'www.halden.de',
      NODE_ENV: 'production',
      METRICS_PORT: 9464,
      METRICS_HOST: '127.0.0.1',
    },
  );
  t.equal(readEnv({ NODE_ENV: 'test' }).NODE_ENV, 'test');
  t.equal(readEnv({ PORT: '0' }).PORT, 0, 'port 0 (any free port) is allowed');
});

t.test('only the given source is read, not the process environment underneath', async (t) => {
  const saved = process.env.PORT;
  process.env.PORT = '4242';
  t.teardown(() => {
    if (saved === undefined) delete process.env.PORT;
    else process.env.PORT = saved;
  });
  t.equal(readEnv({}).PORT, 3000);
});

t.test('a bad value stops the start with an error naming the variable', async (t) => {
  const cases: [string, Record<string, string>, string][] = [
    ['PORT that is not a number', { PORT: 'abc' }, 'PORT'],
    ['PORT above 65535', { PORT: '70000' }, 'PORT'],
    ['negative PORT', { PORT: '-1' }, 'PORT'],
    ['fractional PORT', { PORT: '3000.5' }, 'PORT'],
    ['empty PORT', { PORT: '' }, 'PORT'],
    ['unknown NODE_ENV', { NODE_ENV: 'staging' }, 'NODE_ENV'],
    ['NODE_ENV in upper case', { NODE_ENV: 'PRODUCTION' }, 'NODE_ENV'],
    ['empty HOST', { HOST: '' }, 'HOST'],
    ['content service that is not http(s)', { CONTENT_SERVICE_URL: 'file:///etc' }, 'CONTENT_SERVICE_URL'],
    ['METRICS_PORT that is not a number', { METRICS_PORT: 'on' }, 'METRICS_PORT'],
    ['SHUTDOWN_DRAIN_MS below 0', { SHUTDOWN_DRAIN_MS: '-5' }, 'SHUTDOWN_DRAIN_MS'],
  ];
  for (const [label, source, variable] of cases) {
    t.throws(() => readEnv(source), ConfigError, `${label}: a ConfigError`);
    t.throws(() => readEnv(source), { message: new RegExp(`\\b${variable}\\b`) }, `${label}: names ${variable}`);
  }
});

t.test('an empty FORCE_HOST is accepted (it counts as unset later)', async (t) => {
  t.doesNotThrow(() => readEnv({ FORCE_HOST: '' }));
});

t.test('reading the environment does not change it', async (t) => {
  const source = { PORT: '8080', UNRELATED: 'keep me' };
  readEnv(source);
  t.same(source, { PORT: '8080', UNRELATED: 'keep me' });
});

t.test(
  'Contentstack: an API key needs its delivery token and environment; the region is one of the documented',
  async (t) => {
    const stack = {
      CONTENTSTACK_API_KEY: 'blt1',
      CONTENTSTACK_DELIVERY_TOKEN: 'cs1',
      CONTENTSTACK_ENVIRONMENT: 'prod',
    };
    t.equal(readEnv(stack).CONTENTSTACK_REGION, undefined, 'unset: the source uses us');
    t.equal(readEnv({ ...stack, CONTENTSTACK_REGION: 'azure-eu' }).CONTENTSTACK_REGION, 'azure-eu');
    t.throws(() => readEnv({ ...stack, CONTENTSTACK_REGION: 'mars' }), { message: /CONTENTSTACK_REGION/ });
    t.throws(() => readEnv({ CONTENTSTACK_API_KEY: 'blt1' }), {
      message: /CONTENTSTACK_DELIVERY_TOKEN and CONTENTSTACK_ENVIRONMENT must be too/,
    });
    t.throws(() => readEnv({ ...stack, CONTENTSTACK_HOST: 'cdn.contentstack.io' }), { message: /CONTENTSTACK_HOST/ });
    t.equal(
      readEnv({ ...stack, CONTENTSTACK_HOST: 'http://127.0.0.1:9001' }).CONTENTSTACK_HOST,
      'http://127.0.0.1:9001',
    );
    t.throws(() => readEnv({ CONTENTSTACK_WEBHOOK_SECRET: 'short' }), { message: /CONTENTSTACK_WEBHOOK_SECRET/ });
  },
);

t.test('connection caps: numbers, and the per-address cap below the total', async (t) => {
  const env = readEnv({ CONNECTIONS_MAX: '500', CONNECTIONS_PER_ADDRESS: '50' });
  t.equal(env.CONNECTIONS_MAX, 500);
  t.equal(env.CONNECTIONS_PER_ADDRESS, 50);
  t.throws(() => readEnv({ CONNECTIONS_MAX: '50', CONNECTIONS_PER_ADDRESS: '50' }), {
    message: /CONNECTIONS_PER_ADDRESS must be below CONNECTIONS_MAX/,
  });
  t.throws(() => readEnv({ CONNECTIONS_MAX: '0' }), { message: /CONNECTIONS_MAX/ });
});

t.test('connection deadlines: optional whole milliseconds', async (t) => {
  const env = readEnv({
    HTTP_FIRST_BYTE_TIMEOUT_MS: '1000',
    HTTP_REQUEST_TIMEOUT_MS: '2000',
    HTTP_KEEP_ALIVE_TIMEOUT_MS: '500',
  });
  t.same(
    [env.HTTP_FIRST_BYTE_TIMEOUT_MS, env.HTTP_REQUEST_TIMEOUT_MS, env.HTTP_KEEP_ALIVE_TIMEOUT_MS],
    [1000, 2000, 500],
  );
  t.equal(readEnv({}).HTTP_FIRST_BYTE_TIMEOUT_MS, undefined, 'unset: the defaults of server/http/connection-caps.ts');
  t.throws(() => readEnv({ HTTP_REQUEST_TIMEOUT_MS: '0' }), { message: /HTTP_REQUEST_TIMEOUT_MS/ });
});

t.test('TRUST_PROXY: addresses, ranges and names are taken; anything else stops the start, named', async (t) => {
  for (const value of ['10.0.0.1', '10.0.0.0/8, 192.168.1.1', 'loopback', 'loopback,uniquelocal', '::1'])
    t.equal(readEnv({ TRUST_PROXY: value }).TRUST_PROXY, value, value);
  for (const value of ['garbage!!', 'true', '10.0.0.0/99', '10.0.0.1,'])
    t.throws(() => readEnv({ TRUST_PROXY: value }), { name: 'ConfigError', message: /TRUST_PROXY: .*expected/ }, value);
});
