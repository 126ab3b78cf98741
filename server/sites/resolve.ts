import type { Site, SitesConfig } from '../../common/site.ts';
import { type SiteError, siteErrors } from '../errors.ts';

export interface HostResolver {
  /** The storefront for a Host header value, or the error to answer with. */
  resolve(hostHeader: string | undefined): { site: Site; forced: boolean } | { error: SiteError };
}

/**
 * Hosts that cannot name a storefront themselves and use the forced host instead:
 * empty, `localhost…`, loopback IP literals, and container-app hosts.
 */
export function needsForcedHost(hostname: string): boolean {
  return (
    hostname === '' ||
    hostname.startsWith('localhost') ||
    /^127(?:\.\d{1,3}){3}$/.test(hostname) ||
    hostname === '[::1]' ||
    hostname === '::1' ||
    hostname === '0.0.0.0' ||
    hostname.endsWith('.azurecontainerapps.io')
  );
}

/** `Www.Halden.CH:3000` → `www.halden.ch`; IPv6 literals keep their brackets. */
export function hostnameOf(hostHeader: string | undefined): string {
  const value = (hostHeader ?? '').trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    return end === -1 ? value : value.slice(0, end + 1);
  }
  const colon = value.indexOf(':');
  return colon === -1 ? value : value.slice(0, colon);
}

export function createHostResolver(config: SitesConfig, forceHostOverride?: string): HostResolver {
  const byHost = new Map<string, Site>();
  for (const site of config.sites) {
    byHost.set(site.host, site);
    for (const alias of site.aliases) byHost.set(alias, site);
  }
  // FORCE_HOST="" counts as unset.
  const forceHost = (forceHostOverride || config.forceHost || '').toLowerCase();
  const forcedSite = forceHost ? byHost.get(forceHost) : undefined;
  if (forceHost && !forcedSite) throw new Error(`FORCE_HOST ${forceHost} is not the host or alias of any site`);

  return {
    resolve(hostHeader) {
      const hostname = hostnameOf(hostHeader);
      const site = byHost.get(hostname);
      if (site) return { site, forced: false };
      if (needsForcedHost(hostname)) {
        return forcedSite ? { site: forcedSite, forced: true } : { error: siteErrors.forceHostRequired(hostname) };
      }
      return { error: siteErrors.hostUnknown() };
    },
  };
}
