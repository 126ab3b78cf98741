import { getHeapStatistics } from 'node:v8';

const GUARDED = Symbol.for('vitrine.memoryUsageGuarded');

/**
 * Makes `process.memoryUsage()` answer even when it cannot read the resident set size: Node opens
 * /proc/self/stat for it, which fails with EMFILE once the descriptors run out, and
 * @fastify/under-pressure and prom-client call it from timers, where a throw is an uncaught
 * exception that ends the process. The heap figures come from V8 (no system call); the resident set
 * size stays at its last good reading until it can be read again.
 */
export function guardMemoryUsage(target: Pick<NodeJS.Process, 'memoryUsage'> = process): void {
  const original = target.memoryUsage as NodeJS.Process['memoryUsage'] & { [GUARDED]?: true };
  if (original[GUARDED]) return;
  let lastRss = 0;
  const rss = () => {
    try {
      lastRss = original.rss();
    } catch {}
    return lastRss;
  };
  const usage = () => {
    try {
      const read = original();
      lastRss = read.rss;
      return read;
    } catch {
      const heap = getHeapStatistics();
      return {
        rss: lastRss,
        heapTotal: heap.total_heap_size,
        heapUsed: heap.used_heap_size,
        external: heap.external_memory,
        arrayBuffers: 0,
      };
    }
  };
  target.memoryUsage = Object.assign(usage, { rss, [GUARDED]: true as const });
}
