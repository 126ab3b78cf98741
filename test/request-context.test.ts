import t from 'tap';
import { demoServer, HOSTS } from './helpers.ts';

/** The request context is built once per page request; without one there is no configuration to render with. */

t.test('a page request without a request context gets a clear "configuration not available" error page', async (t) => {
  const app = await demoServer();
  t.teardown(() => app.close());
  // A request that reaches the page pipeline without its storefront (the hook that resolves it
  // skipped or broken): there is no request context to build.
  app.addHook('preHandler', async (request) => {
    if (request.headers['x-drop-storefront']) Reflect.deleteProperty(request, 'site');
  });
  const res = await app.inject({ url: '/', headers: { host: HOSTS.de, 'x-drop-storefront': '1' } });
  t.equal(res.statusCode, 500);
  t.match(res.headers['content-type'], /^text\/html/);
  t.equal(res.headers['cache-control'], 'no-store');
  t.match(res.body, 'Configuration not available');
  t.notMatch(res.body, /at \w+ \(|TypeError|node_modules/, 'no stack trace');
});
