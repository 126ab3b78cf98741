/** At most 4 prefetches at once; none on Save-Data or 2g connections, where bytes cost the visitor. */
export const MAX_PARALLEL_PREFETCH = 4;

interface NetworkInformation {
  saveData?: boolean;
  effectiveType?: string;
}

export function prefetchAllowed(nav: Navigator = navigator): boolean {
  const connection = (nav as Navigator & { connection?: NetworkInformation }).connection;
  if (!connection) return true;
  return !connection.saveData && !(connection.effectiveType ?? '').includes('2g');
}

/**
 * Prefetches likely next pages (same-origin links a visitor hovers, focuses or scrolls to) where the
 * browser has no speculation rules (the server sends those as a header where it does). A queue keeps
 * at most MAX_PARALLEL_PREFETCH requests in flight.
 */
export function startPrefetch(doc: Document = document): void {
  if (!prefetchAllowed()) return;
  if (typeof HTMLScriptElement.supports === 'function' && HTMLScriptElement.supports('speculationrules')) return;
  const seen = new Set<string>([doc.location.pathname]);
  const queue: string[] = [];
  let active = 0;

  const pump = () => {
    while (active < MAX_PARALLEL_PREFETCH && queue.length > 0) {
      const href = queue.shift() as string;
      active++;
      const link = doc.createElement('link');
      link.rel = 'prefetch';
      link.href = href;
      const done = () => {
        active--;
        pump();
      };
      link.addEventListener('load', done, { once: true });
      link.addEventListener('error', done, { once: true });
      doc.head.append(link);
    }
  };
  const want = (anchor: HTMLAnchorElement) => {
    const url = new URL(anchor.href, doc.location.href);
    if (url.origin !== doc.location.origin || url.hash || seen.has(url.pathname)) return;
    seen.add(url.pathname);
    queue.push(url.pathname + url.search);
    pump();
  };

  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      want(entry.target as HTMLAnchorElement);
    }
  });
  for (const anchor of Array.from(doc.querySelectorAll<HTMLAnchorElement>('main a[href^="/"]')))
    observer.observe(anchor);
  const onIntent = (event: Event) => {
    const anchor = (event.target as Element | null)?.closest?.('a[href]');
    if (anchor instanceof HTMLAnchorElement) want(anchor);
  };
  doc.addEventListener('pointerover', onIntent, { passive: true });
  doc.addEventListener('focusin', onIntent);
}
