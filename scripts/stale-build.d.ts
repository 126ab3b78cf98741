/** Types for stale-build.js (plain JavaScript so that `npm start` runs before anything is compiled). */
export function staleBuildReason(build: {
  builtAt: number;
  newestSource: number;
  builtRuntime: string | null;
  requestedRuntime: string;
}): string | null;
