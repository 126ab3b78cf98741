import Fastify from 'fastify';
import t from 'tap';
import { secureResponses } from './security-headers.ts';

async function policyOf(viteClient: boolean): Promise<string> {
  const app = Fastify();
  await secureResponses(app, { viteClient, dataUrl: undefined });
  app.get('/', async () => 'ok');
  const res = await app.inject({ url: '/' });
  await app.close();
  return String(res.headers['content-security-policy']);
}

t.test("under npm run dev the policy lets Vite's client style, and wait for a restarted server", async (t) => {
  const dev = await policyOf(true);
  t.match(dev, /style-src 'self' 'unsafe-inline'/, 'hot CSS updates are <style> elements');
  t.match(dev, /worker-src 'self' blob:/, 'the restart poll is a worker from a blob');
  const built = await policyOf(false);
  t.match(built, /style-src 'self'(;|$)/, 'the built server allows no inline style');
  t.notMatch(built, /worker-src/, 'and no worker from a blob');
});
