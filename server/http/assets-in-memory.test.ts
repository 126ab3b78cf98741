import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import t, { type Test } from 'tap';
import { serveFiles } from './static-files.ts';

const SCRIPT = `export const island = "${'x'.repeat(5_000)}";\n`;

/** A build folder (a script with its twins, a stylesheet, a JSON file, Vite's manifest) served by serveFiles. */
async function served(t: Test) {
  const dir = mkdtempSync(join(tmpdir(), 'assets-in-memory-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const clientDir = join(dir, 'client');
  mkdirSync(join(clientDir, '.vite'), { recursive: true });
  mkdirSync(join(clientDir, 'sdk'));
  writeFileSync(join(clientDir, 'island-abc.js'), SCRIPT);
  writeFileSync(join(clientDir, 'island-abc.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(join(clientDir, 'island-abc.js.gz'), gzipSync(SCRIPT));
  writeFileSync(join(clientDir, 'layout-abc.css'), 'body { margin: 0 }\n');
  writeFileSync(join(clientDir, 'sdk', 'sdk-abc.js'), 'export {};\n');
  writeFileSync(join(clientDir, 'data.json'), '{"held":false}\n');
  writeFileSync(join(clientDir, '.vite', 'manifest.json'), '{"isEntry":true}\n');
  const app = Fastify();
  await serveFiles(app, { clientDir, publicDir: join(dir, 'public') });
  t.teardown(() => app.close());
  return { app, clientDir };
}

const HEADERS = [
  'accept-ranges',
  'cache-control',
  'last-modified',
  'etag',
  'content-type',
  'content-length',
  'vary',
  'content-encoding',
];

t.test('a held script or stylesheet gets the bytes and headers @fastify/static sends from disk', async (t) => {
  const { app } = await served(t);
  for (const url of ['/assets/island-abc.js', '/assets/layout-abc.css', '/assets/sdk/sdk-abc.js']) {
    for (const encoding of [
      undefined,
      'identity',
      'gzip',
      'br',
      'gzip, deflate, br',
      'br;q=0, gzip',
      'gzip;q=0.5, br;q=0.4',
      'br;q=0',
      '*',
    ]) {
      const headers = encoding === undefined ? {} : { 'accept-encoding': encoding };
      const memory = await app.inject({ url, headers });
      // A query is not held as it is: @fastify/static answers it from disk.
      const disk = await app.inject({ url: `${url}?from=disk`, headers });
      const what = `${url}, Accept-Encoding ${encoding}`;
      t.equal(memory.statusCode, 200, what);
      t.same(memory.rawPayload, disk.rawPayload, `${what}: the same bytes`);
      t.same(
        HEADERS.map((name) => memory.headers[name]),
        HEADERS.map((name) => disk.headers[name]),
        `${what}: the same headers`,
      );
    }
  }
});

t.test('held files are answered without the disk: removed after start, still served', async (t) => {
  const { app, clientDir } = await served(t);
  rmSync(join(clientDir, 'island-abc.js'));
  rmSync(join(clientDir, 'island-abc.js.br'));
  const identity = await app.inject({ url: '/assets/island-abc.js' });
  t.equal(identity.statusCode, 200);
  t.equal(identity.payload, SCRIPT, 'the script as it was at start');
  const br = await app.inject({ url: '/assets/island-abc.js', headers: { 'accept-encoding': 'br' } });
  t.equal(br.headers['content-encoding'], 'br', 'its twin too');
  const head = await app.inject({ method: 'HEAD', url: '/assets/island-abc.js' });
  t.equal(head.statusCode, 200, 'HEAD');
  t.equal(head.payload, '', 'HEAD: no body');
  t.equal(head.headers['content-length'], String(SCRIPT.length), 'HEAD: the length of the body it would send');
});

t.test('ranges, revalidations and files that are not scripts or stylesheets still come from disk', async (t) => {
  const { app, clientDir } = await served(t);
  const first = await app.inject({ url: '/assets/island-abc.js' });
  const range = await app.inject({ url: '/assets/island-abc.js', headers: { range: 'bytes=0-9' } });
  t.equal(range.statusCode, 206, 'a range: 206');
  t.equal(range.payload, SCRIPT.slice(0, 10));
  const revalidated = await app.inject({
    url: '/assets/island-abc.js',
    headers: { 'if-none-match': String(first.headers.etag) },
  });
  t.equal(revalidated.statusCode, 304, 'a revalidation: 304');
  t.equal((await app.inject({ url: '/assets/data.json' })).statusCode, 200, 'JSON is served');
  rmSync(join(clientDir, 'data.json'));
  t.equal((await app.inject({ url: '/assets/data.json' })).statusCode, 404, 'from disk: not held');
  const manifest = await app.inject({ url: '/assets/.vite/manifest.json' });
  t.notMatch(manifest.payload, 'isEntry', "Vite's manifest is never served");
});
