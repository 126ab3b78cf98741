import sharp from 'sharp';
import type { DiskCache } from './disk-cache.ts';
import { SOURCE_LIMITS, type Source } from './sources.ts';

export type VariantFormat = 'avif' | 'webp' | 'jpeg' | 'png';

export const CONTENT_TYPES: Record<VariantFormat, string> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
  png: 'image/png',
};

/**
 * Encoder settings (docs/decisions/0158-image-quality.md): chosen by eye and by bytes on the demo
 * photographs at 390 px × DPR 2–3. `v` is part of every cache key: change a setting, bump it.
 */
const ENCODE = {
  v: 2,
  avif: { quality: 50, effort: 2 },
  webp: { quality: 72, effort: 4 },
  jpeg: { quality: 78, mozjpeg: true },
  png: { compressionLevel: 9, effort: 7 },
} as const;

const MAX_WAIT_MS = 3_000;
const busy = () => new ImageRefused(503, 'Too many images being made');

/** A request the route answers with a status of its own rather than an image. */
export class ImageRefused extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export interface VariantOptions {
  cache: DiskCache;
  /** Encodes running at once in this process; more wait in line. */
  concurrency: number;
  /** Encodes waiting at most; past it a request is refused at once (the route then sends the original). */
  maxWaiting: number;
  /** How long a request waits for an encoder before it is refused (the route then sends the original). */
  maxWaitMs?: number;
  maxPixels?: number;
  /** A variant that could not be kept (a read-only or full disk): it is still served. */
  onCacheError?: (error: unknown) => void;
}

type Usable = Extract<Source, { usable: true }>;

/**
 * Makes a source's variant once and keeps it: from the disk cache when any worker made it, else
 * through a bounded line of encodes (sharp, on libuv's threadpool, never the event loop). The same
 * variant asked for twice at once is encoded once.
 */
export class VariantMaker {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly inFlight = new Map<string, Promise<Buffer>>();
  /** Encodes done by this process (tests and metrics). */
  encodes = 0;

  private readonly options: VariantOptions;

  constructor(options: VariantOptions) {
    this.options = options;
  }

  /** The key a variant is stored under: the source's hash, the width made and the encoder settings. */
  static key(source: Usable, width: number, format: VariantFormat): string {
    const made = Math.min(width, source.width);
    return `${source.hash}-${made}-${format}-v${ENCODE.v}.${format}`;
  }

  async get(source: Usable, width: number, format: VariantFormat): Promise<Buffer> {
    const key = VariantMaker.key(source, width, format);
    const shared = this.inFlight.get(key);
    if (shared) return shared;
    const making = this.fromCacheOrMake(key, source, width, format).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, making);
    return making;
  }

  private async fromCacheOrMake(key: string, source: Usable, width: number, format: VariantFormat): Promise<Buffer> {
    const kept = await this.options.cache.read(key);
    if (kept) return kept;
    await this.turn();
    try {
      const body = await this.encode(source, width, format);
      this.encodes++;
      await this.options.cache.write(key, body).catch((error: unknown) => this.options.onCacheError?.(error));
      return body;
    } finally {
      this.release();
    }
  }

  /** Waits for a free encoder; refuses at once when the line is full. */
  private async turn(): Promise<void> {
    if (this.running < this.options.concurrency) {
      this.running++;
      return;
    }
    if (this.waiting.length >= this.options.maxWaiting) throw busy();
    // The slot is handed over by release(): running stays as it is.
    await new Promise<void>((resolve, reject) => {
      const start = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(start), 1);
        reject(busy());
      }, this.options.maxWaitMs ?? MAX_WAIT_MS);
      this.waiting.push(start);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }

  private async encode(source: Usable, width: number, format: VariantFormat): Promise<Buffer> {
    const image = sharp(source.file, {
      limitInputPixels: this.options.maxPixels ?? SOURCE_LIMITS.maxPixels,
      animated: false,
      // A truncated or corrupt file fails here rather than becoming a half-grey variant.
      failOn: 'warning',
    })
      .rotate()
      .resize({ width, withoutEnlargement: true });
    const encoder =
      format === 'avif'
        ? image.avif(ENCODE.avif)
        : format === 'webp'
          ? image.webp(ENCODE.webp)
          : format === 'jpeg'
            ? image.flatten({ background: '#ffffff' }).jpeg(ENCODE.jpeg)
            : image.png(ENCODE.png);
    try {
      return await encoder.toBuffer();
    } catch {
      throw new ImageRefused(422, 'The source image cannot be decoded');
    }
  }
}
