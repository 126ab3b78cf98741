/**
 * How long the supervisor waits before replacing a worker that died. A worker that ran a while
 * died of something passing: it comes back at once. One that died soon after starting would die
 * again (a bad deploy, a port taken): each quick death doubles the wait, up to a ceiling, so a
 * crash loop costs a few forks a minute instead of a spinning core.
 */
export const QUICK_DEATH_MS = 10_000;
export const FIRST_DELAY_MS = 250;
export const MAX_DELAY_MS = 30_000;

export function restartDelay(livedMs: number, previousDelayMs: number): number {
  if (livedMs >= QUICK_DEATH_MS) return 0;
  return Math.min(MAX_DELAY_MS, Math.max(FIRST_DELAY_MS, previousDelayMs * 2));
}
