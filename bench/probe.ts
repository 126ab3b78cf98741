/**
 * Preloaded into a profiled server (`node --import ./bench/probe.ts …`, bench/profile.ts): garbage
 * collection pauses (perf_hooks GC entries) and the event-loop delay histogram, from SIGWINCH (the
 * end of the warm-up) to exit, written as JSON to PROBE_OUT. Erasable TypeScript only: Node strips it.
 */
import { writeFileSync } from 'node:fs';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

const out = process.env.PROBE_OUT;
if (out) {
  const kinds: Record<number, string> = {
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
  };
  let gc: Record<string, { count: number; ms: number; maxMs: number }> = {};
  let since = performance.now();
  /** On the monotonic clock V8's profile timestamps use, in µs. */
  let fromUs = 0;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const detail = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail;
      const kind = kinds[detail?.kind ?? -1] ?? 'other';
      const sum = gc[kind] ?? { count: 0, ms: 0, maxMs: 0 };
      sum.count++;
      sum.ms += entry.duration;
      sum.maxMs = Math.max(sum.maxMs, entry.duration);
      gc[kind] = sum;
    }
  }).observe({ entryTypes: ['gc'] });
  process.on('SIGWINCH', () => {
    gc = {};
    since = performance.now();
    fromUs = Number(process.hrtime.bigint() / 1000n);
    delay.reset();
  });
  process.on('exit', () => {
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    writeFileSync(
      out,
      JSON.stringify({
        wallMs: performance.now() - since,
        fromUs,
        gc,
        eventLoopDelayMs: {
          mean: ms(delay.mean),
          p50: ms(delay.percentile(50)),
          p99: ms(delay.percentile(99)),
          max: ms(delay.max),
        },
      }),
    );
  });
}
