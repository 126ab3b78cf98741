/**
 * Lifetimes of cached entries are spread ±10 %: entries filled together (a cold start,
 * a revalidate) would otherwise all go stale in the same instant and re-render or refetch in one
 * burst, which stalls every request queued behind it. Spread out, the same work arrives in
 * small pieces.
 */
const SPREAD = 0.1;

export function jitteredTtl(ttlMs: number, random: () => number = Math.random): number {
  return Math.round(ttlMs * (1 - SPREAD + 2 * SPREAD * random()));
}
