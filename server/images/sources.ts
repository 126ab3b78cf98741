import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { RASTER_NAME } from '../../common/images.ts';

/** What a source may be at most: past either bound it is refused, never decoded. */
export interface SourceLimits {
  maxBytes: number;
  maxPixels: number;
}

export const SOURCE_LIMITS: SourceLimits = { maxBytes: 20 * 1024 * 1024, maxPixels: 40_000_000 };

export type Source =
  | { name: string; file: string; usable: true; hash: string; width: number; height: number; hasAlpha: boolean }
  | { name: string; file: string; usable: false; reason: string };

/**
 * The raster images of the embedded store's images folder, read once at start: each one's content
 * hash (its variants' URLs), size and whether it can be resized at all. Only names listed here are
 * ever opened by the route, so a request cannot name any other file.
 */
export class ImageSources {
  private readonly byName: ReadonlyMap<string, Source>;

  private constructor(byName: ReadonlyMap<string, Source>) {
    this.byName = byName;
  }

  static async load(dir: string, limits: SourceLimits = SOURCE_LIMITS): Promise<ImageSources> {
    const names = await readdir(dir).catch(() => [] as string[]);
    const sources = await Promise.all(
      names.filter((name) => RASTER_NAME.test(name)).map((name) => inspect(join(dir, name), name, limits)),
    );
    return new ImageSources(new Map(sources.map((source) => [source.name, source])));
  }

  get(name: string): Source | undefined {
    return this.byName.get(name);
  }

  /** The source behind an image URL of the store (`/images/{name}`), when it is a raster it can resize. */
  ofUrl(url: string): Extract<Source, { usable: true }> | undefined {
    if (!url.startsWith('/images/')) return undefined;
    const source = this.byName.get(url.slice('/images/'.length));
    return source?.usable ? source : undefined;
  }
}

async function inspect(file: string, name: string, limits: SourceLimits): Promise<Source> {
  const refused = (reason: string): Source => ({ name, file, usable: false, reason });
  const { size } = await stat(file);
  if (size > limits.maxBytes) return refused(`source larger than ${limits.maxBytes} bytes`);
  const bytes = await readFile(file);
  try {
    // The header only: a source too large in pixels is refused before anything decodes it.
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (!meta.width || !meta.height) return refused('source is not a readable image');
    if (meta.width * meta.height > limits.maxPixels) return refused(`source larger than ${limits.maxPixels} pixels`);
    const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
    return { name, file, usable: true, hash, width: meta.width, height: meta.height, hasAlpha: meta.hasAlpha };
  } catch {
    return refused('source is not a readable image');
  }
}
