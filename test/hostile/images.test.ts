import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { crc32 } from 'node:zlib';
import t from 'tap';
import { IMAGE_WIDTHS } from '../../common/images.ts';
import { rampJpeg } from '../image-fixtures.ts';
import { hostileCase, request } from './attack.ts';
import { startProductionServer } from './production-server.ts';

/**
 * The image route against the production build (docs/security.md cases 61–64): the project laid
 * out in a folder of its own whose public/images holds a photograph and hostile sources.
 */

/** A PNG that is only a header: it claims `width`×`height` pixels (a decompression bomb's promise). */
function pngHeaderOnly(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IEND', Buffer.alloc(0))]);
}

const project = resolve('.');
const root = await mkdtemp(join(tmpdir(), 'vitrine-hostile-images-'));
for (const name of ['dist', 'config', 'content', 'locales', 'node_modules', 'package.json'])
  await symlink(join(project, name), join(root, name));
const images = join(root, 'public', 'images');
await mkdir(images, { recursive: true });
await symlink(join(project, 'public', 'icons'), join(root, 'public', 'icons'));
const photo = await rampJpeg(2000, 1400);
await writeFile(join(images, 'photo.jpg'), photo);
await writeFile(join(images, 'truncated.jpg'), photo.subarray(0, photo.length >> 1));
await writeFile(join(images, 'garbage.jpg'), randomBytes(8192));
await writeFile(join(images, 'bomb.png'), pngHeaderOnly(30_000, 30_000));
await writeFile(join(images, 'heavy.jpg'), Buffer.concat([photo, randomBytes(21 * 1024 * 1024)]));
await writeFile(join(images, 'drawing.svg'), await readFile(join(project, 'public', 'images', 'dishwasher.svg')));
const cacheDir = await mkdtemp(join(tmpdir(), 'vitrine-hostile-image-cache-'));

const server = await startProductionServer(t, { IMAGE_CACHE_DIR: cacheDir }, { cwd: root });
const { port } = server;
const HOST = 'Host: www.halden.co.uk';
const hash = createHash('sha256').update(photo).digest('hex').slice(0, 12);
const ANY = '0'.repeat(12);

await hostileCase(t, server, '61. malformed and oversized sources are a clear 422, over and over', async (t) => {
  const targets = [
    `/img/480/${ANY}/garbage.jpg`,
    `/img/480/${ANY}/bomb.png`,
    `/img/480/${ANY}/heavy.jpg`,
    `/img/480/${createHash('sha256')
      .update(photo.subarray(0, photo.length >> 1))
      .digest('hex')
      .slice(0, 12)}/truncated.jpg`,
  ];
  for (let round = 0; round < 5; round++) {
    const answers = await Promise.all(targets.map((target) => request(port, target, [HOST])));
    for (const [i, answer] of answers.entries()) {
      t.equal(answer.status, 422, `${targets[i]} (round ${round})`);
      t.notMatch(answer.body, /\bat \S+:\d+|Error:|vips/, 'no stack, no library message');
    }
  }
  t.equal((await request(port, `/img/480/${hash}/photo.jpg`, [HOST])).status, 200, 'a sound image still made');
});

await hostileCase(t, server, '62. traversal, hostile query strings and huge widths are refused', async (t) => {
  const refused = [
    `/img/480/${hash}/..%2f..%2fpackage.json`,
    `/img/480/${hash}/..%252f..%252fpackage.json`,
    `/img/480/${hash}/../../../package.json`,
    `/img/480/${hash}/%2e%2e%2f%2e%2e%2fconfig%2fsites.json`,
    `/img/480/${hash}/photo.jpg%00.txt`,
    `/img/480/${hash}/photo.jpg?width=1`,
    `/img/480/${hash}/photo.jpg?${'a=1&'.repeat(500)}`,
    `/img/99999999999999999999/${hash}/photo.jpg`,
    `/img/2001/${hash}/photo.jpg`,
    `/img/1e9/${hash}/photo.jpg`,
    `/img/-480/${hash}/photo.jpg`,
  ];
  for (const target of refused) {
    const answer = await request(port, target, [HOST]);
    t.ok(answer.status >= 300 && answer.status < 500, `${target.slice(0, 60)}: ${answer.status}`);
    t.notMatch(answer.headers, /content-type: image\//i, 'no image');
    t.notMatch(answer.body, /"dependencies"|"sites"|forceHost/, 'no file from outside the images folder');
  }
});

await hostileCase(t, server, '63. SVG is never rasterised for a visitor', async (t) => {
  const svgHash = createHash('sha256')
    .update(await readFile(join(images, 'drawing.svg')))
    .digest('hex')
    .slice(0, 12);
  for (const target of [`/img/480/${svgHash}/drawing.svg`, `/img/480/${ANY}/drawing.svg`]) {
    const answer = await request(port, target, [HOST, 'Accept: image/avif,*/*']);
    t.equal(answer.status, 404, target);
    t.notMatch(answer.headers, /content-type: image\//i);
  }
  const original = await request(port, '/images/drawing.svg', [HOST]);
  t.match(original.headers, /content-type: image\/svg\+xml/i, 'the drawing itself is served as it is');
});

await hostileCase(t, server, '64. a flood of distinct widths and formats queues and is bounded', async (t) => {
  const accepts = ['image/avif,*/*', 'image/webp,*/*', '*/*'];
  const statuses = new Map<number, number>();
  const kinds = { made: 0, original: 0, other: 0 };
  // Last: encodes it leaves queued would hold up the cases after it. Every width from 1 to 2000 in steps, in three formats, twelve at a time from the attacker.
  const asks = Array.from({ length: 240 }, (_, i) => ({
    width: 1 + ((i * 97) % 2000),
    accept: accepts[i % 3] as string,
  }));
  for (let i = 0; i < asks.length; i += 12) {
    const answers = await Promise.all(
      asks
        .slice(i, i + 12)
        .map(({ width, accept }) => request(port, `/img/${width}/${hash}/photo.jpg`, [HOST, `Accept: ${accept}`])),
    );
    for (const { status, headers } of answers) {
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      const made = /cache-control: public, max-age=31536000, immutable/i.test(headers);
      const passed = /cache-control: no-store/i.test(headers) && /content-type: image\/jpeg/i.test(headers);
      kinds[made ? 'made' : passed ? 'original' : 'other']++;
    }
  }
  t.same([...statuses.keys()], [200], 'a variant, or the original while the encoders are busy');
  t.comment(`flood: ${kinds.made} variants, ${kinds.original} originals while busy`);
  t.equal(kinds.other, 0, 'every answer is a kept variant or the original, not kept');
  t.ok(kinds.made > 0, 'variants were made');
  const kept = await readdir(cacheDir);
  t.ok(kept.length <= IMAGE_WIDTHS.length * 3, `at most one file per fixed width and format (${kept.length})`);
});
