import type { FastifyInstance, FastifyReply } from 'fastify';
import { ASSETS_PREFIX } from '../render/assets.ts';
import { ICON_PATHS } from '../routes/icons.ts';
import { type HostResolver, hostnameOf } from './resolve.ts';
import { createMismatchLogger } from './url-check.ts';

/** Paths served the same for every host: built assets, demo images, health. */
const HOST_FREE_PREFIXES = [ASSETS_PREFIX, '/images/', ...ICON_PATHS];

/**
 * Resolves the storefront of every request from its Host (or, from a trusted proxy, its
 * X-Forwarded-Host when that names a storefront) before any route runs; an unknown host gets the
 * error page and nothing else.
 */
export function resolveStorefronts(
  app: FastifyInstance,
  options: {
    hosts: HostResolver;
    trustProxy: boolean;
    dev: boolean;
    refuse: (reply: FastifyReply, error: { status: number; message: string }) => unknown;
  },
): void {
  const { hosts, dev } = options;
  // In production the host a visitor used should be the one the SEO links name.
  const reportMismatch = createMismatchLogger(app.log);
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config?.anyHost) return;
    const url = request.raw.url ?? '/';
    if (HOST_FREE_PREFIXES.some((p) => url.startsWith(p))) return;
    // X-Forwarded-Host counts only from a configured trusted proxy (Fastify's request.host is that
    // header only then) and only when it names a configured storefront.
    const forwarded =
      options.trustProxy && request.host !== request.headers.host ? hosts.resolve(request.host) : undefined;
    const found =
      forwarded && 'site' in forwarded && !forwarded.forced ? forwarded : hosts.resolve(request.headers.host);
    if ('error' in found) {
      // Never cached, never linked: the host is not one of ours.
      return options.refuse(reply, found.error);
    }
    request.site = found.site;
    if (!dev && !found.forced)
      reportMismatch(found.site, hostnameOf(found === forwarded ? request.host : request.headers.host));
  });
  // Behind a trusted proxy X-Forwarded-Host may choose the storefront, so every answer for a
  // storefront depends on it: a shared cache in front must key on it or be poisoned by it.
  if (options.trustProxy)
    app.addHook('onSend', async (request, reply) => {
      if (request.site) reply.header('vary', withVary(reply.getHeader('vary'), 'X-Forwarded-Host'));
    });
}

/** A Vary value with `name` added once (kept as it is when it is `*` or names it already). */
function withVary(current: unknown, name: string): string {
  const value = Array.isArray(current) ? current.join(', ') : typeof current === 'string' ? current : '';
  const names = value.split(',').map((token) => token.trim().toLowerCase());
  if (names.includes('*') || names.includes(name.toLowerCase())) return value;
  return value.trim() === '' ? name : `${value}, ${name}`;
}
