import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';

/** A smooth colour ramp of this size: a stand-in photograph that compresses like one. */
export async function rampJpeg(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      pixels[i] = (x * 255) / width;
      pixels[i + 1] = (y * 255) / height;
      pixels[i + 2] = 128;
    }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/**
 * A public folder for tests whose images/ holds `photo.jpg` (1600×1000), `alpha.png` (with transparency),
 * `truncated.jpg` (a JPEG cut in half: its header reads, its pixels do not), `garbage.jpg` (random
 * bytes), `giant.png` (2400×1000, for a 2-megapixel limit), `heavy.png` (noise, about 1.5 MB, for
 * a byte limit) and `drawing.svg`.
 */
export async function publicFolder(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'vitrine-public-'));
  const dir = join(root, 'images');
  await mkdir(dir);
  const photo = await rampJpeg(1600, 1000);
  await writeFile(join(dir, 'photo.jpg'), photo);
  await writeFile(join(dir, 'truncated.jpg'), photo.subarray(0, photo.length >> 1));
  await writeFile(join(dir, 'garbage.jpg'), randomBytes(4096));
  const alpha = { width: 400, height: 300, channels: 4 as const, background: { r: 200, g: 0, b: 0, alpha: 0.5 } };
  await writeFile(join(dir, 'alpha.png'), await sharp({ create: alpha }).png().toBuffer());
  const giant = { width: 2400, height: 1000, channels: 3 as const, background: '#336699' };
  await writeFile(join(dir, 'giant.png'), await sharp({ create: giant }).png().toBuffer());
  const noise = randomBytes(700 * 700 * 3);
  const heavy = await sharp(noise, { raw: { width: 700, height: 700, channels: 3 } })
    .png()
    .toBuffer();
  await writeFile(join(dir, 'heavy.png'), heavy);
  await writeFile(join(dir, 'drawing.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
  return root;
}

/** The limits the folder above is tested against. */
export const TEST_LIMITS = { maxPixels: 2_000_000, maxBytes: 1_000_000 };
