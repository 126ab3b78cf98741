import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeAtomically } from '../content/write-atomically.ts';

/** A key is a file name the cache itself builds; anything else is a bug, refused before it reaches a path. */
const KEY = /^[0-9a-z-]+\.[a-z]+$/;

/** Temporary files of a write that died (another worker killed mid-write) are removed after this long. */
const STALE_TEMPORARY_MS = 60_000;

/**
 * Variants on disk in one folder every worker of the host sees: written atomically (rename), so a
 * reader in any process gets a whole file or none. Its size is bounded: once this process has
 * written an eighth of the bound since it last looked, it lists the folder (every worker's files)
 * and removes the oldest until the folder is at 80% of the bound.
 */
export class DiskCache {
  private written = Number.POSITIVE_INFINITY;
  private trimming: Promise<void> | undefined;

  private readonly dir: string;
  private readonly maxBytes: number;

  constructor(dir: string, maxBytes: number) {
    this.dir = dir;
    this.maxBytes = maxBytes;
  }

  /** The kept variant, or undefined when there is none (or the folder cannot be read: it is made again). */
  async read(key: string): Promise<Buffer | undefined> {
    return readFile(this.path(key)).catch(() => undefined);
  }

  async write(key: string, body: Uint8Array): Promise<void> {
    await writeAtomically(this.path(key), body);
    this.written += body.byteLength;
    if (this.written > this.maxBytes / 8) this.trimming ??= this.trim().finally(() => (this.trimming = undefined));
  }

  /** Resolves once a trim under way is done (tests). */
  async settled(): Promise<void> {
    await this.trimming;
  }

  private path(key: string): string {
    if (!KEY.test(key)) throw new Error(`Not a cache key: ${key}`);
    return join(this.dir, key);
  }

  private async trim(): Promise<void> {
    this.written = 0;
    const now = Date.now();
    const files: { file: string; size: number; made: number }[] = [];
    for (const name of await readdir(this.dir)) {
      const file = join(this.dir, name);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) continue;
      if (name.endsWith('.tmp')) {
        if (now - info.mtimeMs > STALE_TEMPORARY_MS) await rm(file, { force: true });
        continue;
      }
      files.push({ file, size: info.size, made: info.mtimeMs });
    }
    let total = files.reduce((sum, f) => sum + f.size, 0);
    if (total <= this.maxBytes) return;
    files.sort((a, b) => a.made - b.made);
    for (const { file, size } of files) {
      if (total <= this.maxBytes * 0.8) break;
      await rm(file, { force: true });
      total -= size;
    }
  }
}
