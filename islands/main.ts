import { showUpdateNotice, watchBuild } from './build-update.ts';
import { startPrefetch } from './prefetch.ts';
import { reloadOnce } from './reload-guard.ts';
import { start } from './runtime.ts';
import { readRuntimeData } from './runtime-data.ts';

// The entry the page loads, only on pages that have islands: islands, plus the
// build-update check, prefetching and the reload guard that ride along with them.
const data = readRuntimeData(document);
document.addEventListener('vitrine:island-error', () => reloadOnce(location.pathname + location.search));
window.addEventListener('vite:preloadError', () => reloadOnce(location.pathname + location.search));
// The page's boot script imports this entry once the largest paint is on screen (decisions 0182,
// 0199). Prefetching and the build check wait for an idle moment after that: hydration comes first.
const later = (run: () => void) =>
  'requestIdleCallback' in window ? requestIdleCallback(run, { timeout: 3000 }) : setTimeout(run, 1000);
start();
later(() => {
  startPrefetch();
  if (data) watchBuild({ data, onUpdate: () => showUpdateNotice(data) });
});
