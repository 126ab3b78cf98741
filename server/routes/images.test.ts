import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import t from 'tap';
import { IMAGE_WIDTHS } from '../../common/images.ts';
import { demoServer, HOSTS } from '../../test/helpers.ts';
import { publicFolder, TEST_LIMITS } from '../../test/image-fixtures.ts';
import { ImageSources } from '../images/sources.ts';
import { negotiateFormat } from './images.ts';

/** The image route (docs/decisions/0157): fixed widths, formats by Accept, kept on disk, guarded. */

const publicDir = await publicFolder();
const cacheDir = await mkdtemp(join(tmpdir(), 'vitrine-image-cache-'));
const serve = () => demoServer({ publicDir, images: { cacheDir, limits: TEST_LIMITS } });
const app = await serve();
t.teardown(() => app.close());
const sources = await ImageSources.load(join(publicDir, 'images'), { ...TEST_LIMITS });
const hashOf = (name: string) => {
  const source = sources.get(name);
  if (!source?.usable) throw new Error(`${name} is not a usable fixture`);
  return source.hash;
};
const photo = hashOf('photo.jpg');
const get = (url: string, headers: Record<string, string> = {}, server = app) =>
  server.inject({ url, headers: { host: HOSTS.uk, ...headers } });
const AVIF = 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8';

t.test('a width between the fixed ones is served at the next one up, the same bytes', async (t) => {
  const asked = await get(`/img/700/${photo}/photo.jpg`);
  const fixed = await get(`/img/800/${photo}/photo.jpg`);
  t.equal(asked.statusCode, 200);
  t.equal(asked.headers.etag, fixed.headers.etag);
  t.same(asked.rawPayload, fixed.rawPayload);
  t.equal((await sharp(asked.rawPayload).metadata()).width, 800);
  t.equal((await sharp((await get(`/img/1/${photo}/photo.jpg`)).rawPayload).metadata()).width, IMAGE_WIDTHS[0]);
  // Past the source's own width nothing is enlarged: 2000 is the 1600-wide original re-encoded.
  const widest = await get(`/img/2000/${photo}/photo.jpg`);
  t.equal((await sharp(widest.rawPayload).metadata()).width, 1600);
  t.equal(widest.headers.etag, (await get(`/img/1900/${photo}/photo.jpg`)).headers.etag);
});

t.test('widths that are not whole numbers, or past the largest, are refused with 400', async (t) => {
  for (const width of ['0', '08', '-1', '1.5', 'abc', '2001', '99999', '999999999999', '1e3']) {
    const res = await get(`/img/${width}/${photo}/photo.jpg`);
    t.equal(res.statusCode, 400, width);
    t.equal(res.headers['cache-control'], 'no-store');
    t.notMatch(res.body, width === '0' ? /^$/ : width, 'the input is not echoed');
  }
});

t.test('the format is the one Accept ranks highest among those it names', async (t) => {
  const cases: [string | undefined, boolean, string][] = [
    ['image/avif,image/webp,*/*', false, 'avif'],
    ['image/webp;q=1, image/avif;q=0.5', false, 'webp'],
    ['image/avif;q=0.9, image/webp;q=0.8', false, 'avif'],
    ['image/webp,image/avif', false, 'webp'],
    ['image/avif;q=0, image/webp', false, 'webp'],
    ['image/avif;q=0', false, 'jpeg'],
    ['image/*,*/*', true, 'png'],
    [undefined, false, 'jpeg'],
  ];
  for (const [accept, hasAlpha, format] of cases) t.equal(negotiateFormat(accept, hasAlpha), format, `${accept}`);
});

t.test('the format follows what Accept names, and every answer varies on it', async (t) => {
  const cases: [string, string, string, string][] = [
    ['photo.jpg', AVIF, 'image/avif', 'heif'],
    ['photo.jpg', 'image/webp,*/*', 'image/webp', 'webp'],
    ['photo.jpg', '*/*', 'image/jpeg', 'jpeg'],
    ['photo.jpg', 'image/*', 'image/jpeg', 'jpeg'],
    ['photo.jpg', 'image/avif;q=0,image/webp', 'image/webp', 'webp'],
    ['alpha.png', '*/*', 'image/png', 'png'],
    ['alpha.png', 'image/webp', 'image/webp', 'webp'],
  ];
  for (const [name, accept, type, format] of cases) {
    const res = await get(`/img/480/${hashOf(name)}/${name}`, { accept });
    t.equal(res.statusCode, 200, `${name} for ${accept}`);
    t.equal(res.headers['content-type'], type, accept);
    t.match(res.headers.vary, /\bAccept\b/);
    t.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    t.equal((await sharp(res.rawPayload).metadata()).format, format, accept);
  }
  const avif = await get(`/img/480/${photo}/photo.jpg`, { accept: AVIF });
  const jpeg = await get(`/img/480/${photo}/photo.jpg`);
  t.not(avif.headers.etag, jpeg.headers.etag, 'each encoding has its own ETag');
  t.ok(avif.rawPayload.length < jpeg.rawPayload.length, 'AVIF is the smaller');
});

t.test('a variant is kept on disk and served from there, by this process and by another', async (t) => {
  const url = `/img/320/${photo}/photo.jpg`;
  const made = await get(url, { accept: 'image/webp' });
  t.equal(made.statusCode, 200);
  const kept = (await readdir(cacheDir)).filter((name) => name.includes('-320-webp'));
  t.equal(kept.length, 1, 'one file for the variant');
  // Put a marker where the variant is kept: whoever answers it next read the disk, not the encoder.
  await writeFile(join(cacheDir, kept[0] as string), 'kept');
  t.equal((await get(url, { accept: 'image/webp' })).body, 'kept');
  const otherWorker = await serve();
  t.teardown(() => otherWorker.close());
  t.equal((await get(url, { accept: 'image/webp' }, otherWorker)).body, 'kept');
});

t.test('a matching If-None-Match gets 304 without a body', async (t) => {
  const first = await get(`/img/640/${photo}/photo.jpg`);
  const again = await get(`/img/640/${photo}/photo.jpg`, { 'if-none-match': first.headers.etag as string });
  t.equal(again.statusCode, 304);
  t.equal(again.body, '');
  t.match(again.headers.vary, /\bAccept\b/);
});

t.test('sources past the pixel or byte limit are refused with 422 naming the limit', async (t) => {
  for (const [name, limit] of [
    ['giant.png', /2000000 pixels/],
    ['heavy.png', /1000000 bytes/],
  ] as const) {
    const res = await get(`/img/480/${'0'.repeat(12)}/${name}`);
    t.equal(res.statusCode, 422, name);
    t.match(res.body, limit);
    t.equal(res.headers['cache-control'], 'no-store');
  }
});

t.test('a malformed image is a clear 422, and the server goes on serving', async (t) => {
  const garbage = await get(`/img/480/${'0'.repeat(12)}/garbage.jpg`);
  t.equal(garbage.statusCode, 422);
  t.match(garbage.body, /cannot be resized: source is not a readable image/);
  const truncated = await get(`/img/480/${hashOf('truncated.jpg')}/truncated.jpg`);
  t.equal(truncated.statusCode, 422);
  t.equal(truncated.body, 'The source image cannot be decoded\n');
  t.notMatch(truncated.body, /at |Error|vips/, 'no stack, no library message');
  t.equal((await get('/healthcheck')).statusCode, 200);
  t.equal((await get(`/img/480/${photo}/photo.jpg`)).statusCode, 200);
});

t.test('names outside the images folder, unknown names, SVG, old hashes and query strings are refused', async (t) => {
  const refused: [string, number][] = [
    [`/img/480/${photo}/..%2f..%2fpackage.json`, 404],
    [`/img/480/${photo}/..%2Fphoto.jpg`, 404],
    // Dot segments are resolved by the site's one-spelling redirect before any route sees them.
    [`/img/480/${photo}/%2e%2e`, 301],
    [`/img/480/${photo}/.photo.jpg`, 404],
    [`/img/480/${photo}/missing.jpg`, 404],
    [`/img/480/${photo}/drawing.svg`, 404],
    [`/img/480/${photo}/photo.jpg%00.png`, 404],
    [`/img/480/${'f'.repeat(12)}/photo.jpg`, 404],
    [`/img/480/../../package.json`, 404],
    [`/img/480/${photo}/photo.jpg?w=1`, 400],
    [`/img/480/${photo}/photo.jpg?__proto__[x]=1&w=480&w=800`, 400],
  ];
  for (const [url, status] of refused) {
    const res = await get(url);
    t.equal(res.statusCode, status, url);
    t.notMatch(res.headers['content-type'], /^image\//, url);
    if (status === 301) t.equal(res.headers.location, '/img/480');
    // The route's own refusals are a fixed line; the page 404 of a path outside it is the site's.
    if (res.headers['content-type']?.startsWith('text/plain'))
      t.notMatch(res.body, /package\.json|__proto__|%2f|svg/i, 'the input is not echoed');
  }
});

t.test('with every encoder busy, a variant is answered with the photograph as it is, never kept', async (t) => {
  const busy = await demoServer({
    publicDir,
    images: { cacheDir: await mkdtemp(join(tmpdir(), 'vitrine-image-busy-')), concurrency: 1, maxWaiting: 0 },
  });
  t.teardown(() => busy.close());
  // Two variants at once for one encoder and no line: whichever reaches it first is made, the other
  // is the photograph as it is (which comes first is the scheduler's).
  const paths = [`/img/1600/${photo}/photo.jpg`, `/img/320/${photo}/photo.jpg`];
  const answers = await Promise.all(paths.map((path) => get(path, { accept: AVIF }, busy)));
  const madeAt = answers.findIndex((answer) => answer.headers['content-type'] === 'image/avif');
  t.not(madeAt, -1, 'one of them is made');
  const passed = answers[1 - madeAt];
  t.equal(passed?.statusCode, 200, 'not a hole in the page');
  t.equal(passed?.headers['content-type'], 'image/jpeg');
  t.equal(passed?.headers['cache-control'], 'no-store', 'asked for again next time');
  t.same(passed?.rawPayload, await readFile(join(publicDir, 'images', 'photo.jpg')));
  const later = await get(paths[1 - madeAt] as string, { accept: AVIF }, busy);
  t.equal(later.headers['content-type'], 'image/avif', 'made once the encoder is free');
});
