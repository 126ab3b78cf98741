import type { RuntimeData } from './runtime-data.ts';

/** Check for a new build every hour, and when the tab returns after that long. */
export const BUILD_CHECK_INTERVAL_MS = 3_600_000;

interface BuildUpdateOptions {
  data: RuntimeData;
  fetch?: typeof fetch;
  now?: () => number;
  /** Shown once a newer build is detected (a small notice with a reload button). */
  onUpdate?: (latestId: string) => void;
}

/**
 * Build-update detection: polls `builds/latest.json?{timestamp}`; when its
 * id differs from the running build, every later same-origin navigation is a full document load
 * (links here already are) and the route-rules manifest of the new build is fetched; a failing
 * manifest fetch is only logged. Returns a stop function.
 */
export function watchBuild({ data, fetch: doFetch = fetch, now = Date.now, onUpdate }: BuildUpdateOptions): () => void {
  let lastCheck = now();
  let detected = false;

  const check = async () => {
    lastCheck = now();
    try {
      const response = await doFetch(`/builds/latest.json?${lastCheck}`, { cache: 'no-store' });
      if (!response.ok) return;
      const latest = (await response.json()) as { id?: unknown };
      if (typeof latest.id !== 'string' || latest.id === data.build.id || detected) return;
      detected = true;
      document.documentElement.dataset.buildStale = latest.id;
      onUpdate?.(latest.id);
      const meta = await doFetch(`/builds/meta/${encodeURIComponent(latest.id)}.json`);
      if (!meta.ok) console.error(`Route-rules manifest fetch failed: ${meta.status}`);
    } catch (error) {
      console.error('Build update check failed', error);
    }
  };

  const timer = setInterval(check, BUILD_CHECK_INTERVAL_MS);
  const onVisible = () => {
    if (document.visibilityState === 'visible' && now() - lastCheck >= BUILD_CHECK_INTERVAL_MS) void check();
  };
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisible);
  };
}

/** The translated notice offering a reload; plain DOM, no React needed for two elements. */
export function showUpdateNotice(data: RuntimeData): void {
  if (document.getElementById('vitrine-build-notice')) return;
  const notice = document.createElement('div');
  notice.id = 'vitrine-build-notice';
  notice.className = 'build-notice';
  notice.setAttribute('role', 'status');
  const text = document.createElement('span');
  text.textContent = data.messages.updateAvailable;
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = data.messages.reload;
  button.addEventListener('click', () => window.location.reload());
  notice.append(text, button);
  document.body.append(notice);
}
