import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliDecompress } from 'node:zlib';
import { type CacheFill, RenderedPage } from '../render/html-cache.ts';
import type { SharedRedis } from './redis.ts';

const decompress = promisify(brotliDecompress);

const GENERATION_KEY = 'vitrine:page-generation';

export interface PageTierOptions {
  /** How long a shared page is kept: the HTML cache's own freshness. */
  ttlMs: number;
  /** How long one instance may hold the right to render a page before another takes over. */
  lockMs?: number;
  /** How long an instance waits for the page another one is rendering before rendering it itself. */
  waitMs?: number;
}

/**
 * Rendered pages in Redis, behind each instance's memory: a page rendered by one instance is served
 * by all, stored brotli-compressed (the encoding most visitors take) under a generation that every
 * content change moves on, so no instance reads a page built from older content. Concurrent misses
 * across instances render once: the first takes a short lock, the others wait for its page.
 */
export class PageTier {
  #redis: SharedRedis;
  #options: Required<PageTierOptions>;
  /** Unknown until read, and while a change is on its way: then the tier is bypassed. */
  #generation: number | undefined;

  constructor(redis: SharedRedis, options: PageTierOptions) {
    this.#redis = redis;
    this.#options = { lockMs: 5_000, waitMs: 2_000, ...options };
    void this.refresh();
    redis.onRecover(() => void this.refresh());
  }

  /** Moves every instance to a new generation (this instance announced a change). */
  async bump(): Promise<number | undefined> {
    this.#generation = undefined;
    try {
      this.#generation = await this.#redis.commands.incr(GENERATION_KEY);
    } catch (error) {
      this.#redis.report(error, 'moving the page generation on');
    }
    return this.#generation;
  }

  /** Another instance announced a change, and with it the generation it moved to. */
  adopt(generation: number | undefined): void {
    this.#generation = generation;
    if (generation === undefined) void this.refresh();
  }

  async refresh(): Promise<void> {
    try {
      this.#generation = Number((await this.#redis.commands.get(GENERATION_KEY)) ?? 0);
    } catch (error) {
      this.#redis.report(error, 'reading the page generation');
    }
  }

  /** The page another instance rendered, or the one `render` makes here, then shared. */
  async fill(key: string, render: () => Promise<CacheFill | undefined>): Promise<CacheFill | undefined> {
    const generation = this.#generation;
    if (generation === undefined || !this.#redis.up) return render();
    const pageKey = `vitrine:page:${generation}:${createHash('sha1').update(key).digest('base64url')}`;
    const commands = this.#redis.commands;
    try {
      const shared = await this.#read(pageKey);
      if (shared) return shared;
      const locked = await commands.set(`${pageKey}:lock`, this.#redis.instance, 'PX', this.#options.lockMs, 'NX');
      if (locked !== 'OK') {
        const waited = await this.#waitFor(pageKey);
        if (waited) return waited;
        return render();
      }
    } catch (error) {
      this.#redis.report(error, 'reading a shared page');
      return render();
    }
    const filled = await render();
    if (filled instanceof RenderedPage && !filled.transient && generation === this.#generation) {
      try {
        const body = await filled.encoded('br');
        await commands
          .multi()
          .hset(pageKey, { body, tags: filled.tags.join(' ') })
          .pexpire(pageKey, this.#options.ttlMs)
          .exec();
      } catch (error) {
        this.#redis.report(error, 'sharing a page');
      }
    }
    await commands.del(`${pageKey}:lock`).catch(() => {});
    return filled;
  }

  async #read(pageKey: string): Promise<RenderedPage | null> {
    const { body: br, tags } = await this.#redis.commands.hgetallBuffer(pageKey);
    if (!br) return null;
    const tagList = tags ? tags.toString().split(' ').filter(Boolean) : [];
    return new RenderedPage(await decompress(br), { encoded: { br }, tags: tagList });
  }

  async #waitFor(pageKey: string): Promise<RenderedPage | null> {
    const deadline = Date.now() + this.#options.waitMs;
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      const page = await this.#read(pageKey);
      if (page) return page;
    }
    return null;
  }
}
