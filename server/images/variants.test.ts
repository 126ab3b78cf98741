import { mkdtemp, readdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { publicFolder, TEST_LIMITS } from '../../test/image-fixtures.ts';
import { DiskCache } from './disk-cache.ts';
import { ImageSources } from './sources.ts';
import { ImageRefused, VariantMaker } from './variants.ts';

const sources = await ImageSources.load(join(await publicFolder(), 'images'), TEST_LIMITS);
const photo = sources.get('photo.jpg');
if (!photo?.usable) throw new Error('photo.jpg should be usable');
const cacheDir = () => mkdtemp(join(tmpdir(), 'vitrine-variants-'));

/** A disk cache whose reads all wait for `open()`: every request then reaches the encoder line at once. */
function gatedCache(real: DiskCache) {
  let open = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  const cache = Object.assign(Object.create(real) as DiskCache, {
    read: async (key: string) => {
      await gate;
      return real.read(key);
    },
  });
  return { cache, open };
}

t.test('the same variant asked for many times at once is encoded once', async (t) => {
  const maker = new VariantMaker({ cache: new DiskCache(await cacheDir(), 1e9), concurrency: 1, maxWaiting: 8 });
  const bodies = await Promise.all(Array.from({ length: 6 }, () => maker.get(photo, 800, 'webp')));
  t.equal(maker.encodes, 1);
  t.ok(bodies.every((body) => body.equals(bodies[0] as Buffer)));
  await maker.get(photo, 800, 'webp');
  t.equal(maker.encodes, 1, 'and later read from disk');
});

t.test('distinct variants wait in a bounded line: past it they are refused with 503 at once', async (t) => {
  const { cache, open } = gatedCache(new DiskCache(await cacheDir(), 1e9));
  const maker = new VariantMaker({ cache, concurrency: 1, maxWaiting: 2 });
  const asks = [320, 480, 640, 800, 1080, 1280].map((width) =>
    maker.get(photo, width, 'jpeg').then(
      () => 'made',
      (error: unknown) => (error instanceof ImageRefused ? error.status : 'failed'),
    ),
  );
  open();
  const results = await Promise.all(asks);
  t.same(
    results.toSorted((a, b) => String(a).localeCompare(String(b))),
    [503, 503, 503, 'made', 'made', 'made'],
    'one encoding, two waiting, the rest refused',
  );
  t.equal(maker.encodes, 3);
});

t.test('a request that waits past its deadline for an encoder is refused with 503', async (t) => {
  const { cache, open } = gatedCache(new DiskCache(await cacheDir(), 1e9));
  const maker = new VariantMaker({ cache, concurrency: 1, maxWaiting: 8, maxWaitMs: 0 });
  // Which of the two reaches the encoder first is up to the disk reads: one is made, the other waits and gives up.
  const widths = [1600, 320];
  const asks = widths.map((width) =>
    maker.get(photo, width, 'webp').then(
      () => 'made',
      (error: unknown) => error,
    ),
  );
  open();
  const results = await Promise.all(asks);
  t.equal(results.filter((result) => result === 'made').length, 1, 'one is made');
  const gaveUp = results.findIndex((result) => result instanceof ImageRefused && result.status === 503);
  t.ok(gaveUp >= 0, 'the other gave up waiting');
  t.ok((await maker.get(photo, widths[gaveUp] as number, 'webp')).length > 0, 'and is made once asked again');
});

t.test('a source that fails to decode is refused with 422, and the maker goes on', async (t) => {
  const truncated = sources.get('truncated.jpg');
  if (!truncated?.usable) throw new Error('truncated.jpg reads its header');
  const maker = new VariantMaker({ cache: new DiskCache(await cacheDir(), 1e9), concurrency: 1, maxWaiting: 2 });
  await t.rejects(maker.get(truncated, 480, 'jpeg'), new ImageRefused(422, 'The source image cannot be decoded'));
  t.ok((await maker.get(photo, 480, 'jpeg')).length > 0);
});

t.test('the disk cache stays within its bound, the oldest files going first', async (t) => {
  const dir = await cacheDir();
  const cache = new DiskCache(dir, 10_000);
  for (let i = 0; i < 20; i++) {
    await cache.write(`k${i}.webp`, Buffer.alloc(1_000, i));
    await cache.settled();
  }
  const names = await readdir(dir);
  const total = (await Promise.all(names.map((name) => stat(join(dir, name))))).reduce((sum, s) => sum + s.size, 0);
  t.ok(total <= 10_000, `${total} bytes kept`);
  t.ok(names.includes('k19.webp'), 'the newest is kept');
  t.notOk(names.includes('k0.webp'), 'the oldest is gone');
  t.equal((await cache.read('k0.webp')) ?? 'gone', 'gone');
});

t.test('a variant that cannot be kept (the folder is not writable) is served all the same, and said', async (t) => {
  const notAFolder = join(await cacheDir(), 'file');
  await writeFile(notAFolder, '');
  const errors: unknown[] = [];
  const maker = new VariantMaker({
    cache: new DiskCache(join(notAFolder, 'cache'), 1e9),
    concurrency: 1,
    maxWaiting: 2,
    onCacheError: (error) => errors.push(error),
  });
  t.ok((await maker.get(photo, 320, 'webp')).length > 0);
  t.equal(errors.length, 1);
});
