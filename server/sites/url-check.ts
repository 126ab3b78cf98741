import type { Site } from '../../common/site.ts';

const urlHosts = new WeakMap<Site, string>();

/**
 * The host of a storefront's configured base URL (`https://shop.example:8443` → `shop.example`),
 * parsed once per storefront: every request asks.
 */
export function urlHostOf(site: Site): string {
  let host = urlHosts.get(site);
  if (host === undefined) {
    host = new URL(site.url).hostname.toLowerCase();
    urlHosts.set(site, host);
  }
  return host;
}

/**
 * A request reached a storefront on a host its SEO links do not use: canonical, hreflang and
 * sitemap URLs then point somewhere else than the visitor is. Alias hosts are expected to differ.
 */
export function hostMismatch(site: Site, hostname: string): boolean {
  return hostname !== urlHostOf(site) && !site.aliases.includes(hostname);
}

/**
 * Logs each storefront's first mismatch once: the condition is a deployment fact (DNS or config),
 * so one line says it, and a stream of requests cannot flood the log.
 */
export function createMismatchLogger(log: { error(obj: object, msg: string): void }) {
  const reported = new Set<string>();
  return (site: Site, hostname: string) => {
    if (reported.has(site.host) || !hostMismatch(site, hostname)) return;
    reported.add(site.host);
    log.error(
      { site: site.host, requestHost: hostname, url: site.url },
      'The request host differs from the site URL host: SEO links point elsewhere',
    );
  };
}
