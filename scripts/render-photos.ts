import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';

/**
 * The illustrations the demo shows as photographs: its products, its heroes and the parallax banner
 * (a drawing in an `<img>` is a document laid out on the main thread: decision 0219).
 */
export const PHOTOGRAPHS = [
  'dishwasher',
  'oven',
  'washing-machine',
  'vacuum',
  'hero-home',
  'hero-kitchen',
  'hero-cleaning',
  'parallax',
] as const;

/** As wide as the largest variant the image route makes: the original a camera would give, or more. */
const WIDTH = 2000;

/**
 * Renders each illustration of `dir` (`{name}.svg`) as a raster photograph beside it
 * (`{name}.jpg`, 2000 px wide), so every product page goes through the image route
 * (docs/decisions/0159-raster-demo-photographs.md). A file that would not change is not rewritten.
 */
export async function renderPhotos(dir: string): Promise<void> {
  for (const name of PHOTOGRAPHS) {
    const svg = join(dir, `${name}.svg`);
    const { width = WIDTH } = await sharp(svg).metadata();
    // librsvg renders at 72 dpi: this density gives the wanted width whatever the drawing's own.
    const photo = await sharp(svg, { density: (72 * WIDTH) / width })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer();
    const target = join(dir, `${name}.jpg`);
    const before = await readFile(target).catch(() => undefined);
    if (!before?.equals(photo)) await writeFile(target, photo);
  }
}
