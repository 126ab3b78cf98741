import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import sharp from 'sharp';
import { DiskCache } from './disk-cache.ts';
import { ImageSources, SOURCE_LIMITS, type SourceLimits } from './sources.ts';
import { VariantMaker } from './variants.ts';

export interface ImageOptions {
  /** IMAGE_CACHE_DIR: where variants are kept, one folder for every worker of the host. */
  cacheDir?: string;
  /** IMAGE_CACHE_MB, in bytes: the folder's bound. */
  cacheBytes?: number;
  /** Encodes at once per process; default half the cores, at least one. */
  concurrency?: number;
  /** Encodes waiting at most per process; past it a request gets the original, not kept. */
  maxWaiting?: number;
  limits?: Partial<SourceLimits>;
}

export const IMAGE_CACHE_DIR = join(tmpdir(), 'vitrine-images');
const CACHE_BYTES = 512 * 1024 * 1024;

/** The image route's parts for one images folder. */
export async function startImages(dir: string, options: ImageOptions = {}, log?: FastifyBaseLogger) {
  // One libvips thread per image: the line below bounds how many run, and pages keep a core.
  sharp.concurrency(1);
  // Variants live on disk; libvips' own cache of decoded sources would only grow the heap.
  sharp.cache(false);
  const limits = { ...SOURCE_LIMITS, ...options.limits };
  const sources = await ImageSources.load(dir, limits);
  let lastWarning = Number.NEGATIVE_INFINITY;
  const variants = new VariantMaker({
    cache: new DiskCache(options.cacheDir ?? IMAGE_CACHE_DIR, options.cacheBytes ?? CACHE_BYTES),
    concurrency: options.concurrency ?? Math.max(1, Math.floor(availableParallelism() / 2)),
    maxWaiting: options.maxWaiting ?? 32,
    maxPixels: limits.maxPixels,
    onCacheError: (error) => {
      // Served all the same, made again next time; said at most once a minute.
      if (Date.now() - lastWarning < 60_000) return;
      lastWarning = Date.now();
      log?.warn({ err: error }, 'An image variant could not be kept on disk: set IMAGE_CACHE_DIR to a writable folder');
    },
  });
  return { sources, variants };
}
