/** The reload guard's default time to live: a second reload of the same path within it is a loop. */
export const RELOAD_GUARD_TTL_MS = 10_000;
const KEY = 'vitrine:reload';

/**
 * A chunk that fails to load (usually a stale page after a deploy) gets one full reload to the
 * requested path. sessionStorage remembers the reload for 10 s, so a chunk that keeps failing cannot
 * cause a loop. Returns whether it reloaded.
 */
export function reloadOnce(
  path: string,
  { storage = sessionStorage, now = Date.now(), reload = (to: string) => window.location.assign(to) } = {},
): boolean {
  try {
    const last = JSON.parse(storage.getItem(KEY) ?? 'null') as { path: string; at: number } | null;
    if (last && last.path === path && now - last.at < RELOAD_GUARD_TTL_MS) return false;
    storage.setItem(KEY, JSON.stringify({ path, at: now }));
  } catch {
    // Storage can be unavailable (privacy modes): better no reload than a possible loop.
    return false;
  }
  reload(path);
  return true;
}
