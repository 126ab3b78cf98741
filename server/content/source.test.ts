import t from 'tap';
import { readEnv } from '../config/env.ts';
import { contentSource } from './source.ts';

const logger = { warn: () => {} };
const where = (env: Record<string, string>) => {
  const source = contentSource(readEnv(env), logger);
  t.teardown(() => source?.close());
  return source?.locate?.({ kind: 'page', uuid: '125', locale: 'de-CH' });
};

t.test('a Contentstack API key picks the stack, over a content service URL; neither picks the store', async (t) => {
  const stack = {
    CONTENTSTACK_API_KEY: 'blt1',
    CONTENTSTACK_DELIVERY_TOKEN: 'cs1',
    CONTENTSTACK_ENVIRONMENT: 'prod',
    CONTENTSTACK_HOST: 'http://127.0.0.1:9001',
  };
  t.match(where({ ...stack, CONTENT_SERVICE_URL: 'http://127.0.0.1:9009' }), /^http:\/\/127\.0\.0\.1:9001\/v3\//);
  t.match(where({ CONTENT_SERVICE_URL: 'http://127.0.0.1:9009' }), /^http:\/\/127\.0\.0\.1:9009\/cs\/api\//);
  const { CONTENTSTACK_HOST: _local, ...regional } = stack;
  t.match(where({ ...regional, CONTENTSTACK_REGION: 'eu' }), /^https:\/\/eu-cdn\.contentstack\.com\//);
  t.equal(contentSource(readEnv({}), logger), undefined);
});

t.test('APP_CONFIG_COOKIES names the cookies a content service is given; none by default', async (t) => {
  const service = (env: Record<string, string>) => {
    const source = contentSource(readEnv({ CONTENT_SERVICE_URL: 'http://127.0.0.1:9009', ...env }), logger);
    t.teardown(() => source?.close());
    return source;
  };
  t.equal(service({})?.appConfigCookie, undefined, 'no cookie can matter by default');
  const named = service({ APP_CONFIG_COOKIES: 'who,tier' });
  t.equal(named?.appConfigCookie?.('_ga=1; tier=b; who=ann; x=2'), 'tier=b; who=ann');
  t.throws(() => readEnv({ APP_CONFIG_COOKIES: 'who; tier' }), /APP_CONFIG_COOKIES/, 'names only, comma-separated');
});
