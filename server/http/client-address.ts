import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import ipaddr from 'ipaddr.js';

/**
 * Whose address a connection or request is: the peer's, or behind a trusted proxy the visitor's it
 * forwards (`X-Forwarded-For`), read with the same trust as Fastify's `request.ip` (TRUST_PROXY, a
 * comma-separated list of addresses or ranges). Raw sockets and upgrades never pass through Fastify,
 * so the caps on them ask here.
 */
export interface ClientAddresses {
  /** True when `peer` may set `X-Forwarded-*`: its connections carry many visitors. */
  isTrustedProxy(peer: string): boolean;
  /** The visitor's address for a request: its `X-Forwarded-For` entry when the peer is trusted. */
  of(request: IncomingMessage): string | undefined;
}

export function clientAddresses(trustProxy: string | undefined): ClientAddresses {
  if (!trustProxy) {
    return { isTrustedProxy: () => false, of: (request) => request.socket.remoteAddress };
  }
  const trust = proxyAddr.compile(trustProxy.split(',').map((entry) => entry.trim()));
  return {
    isTrustedProxy: (peer) => trust(peer, 0),
    of: (request) => proxyAddr(request, trust),
  };
}

/**
 * The group an address counts in at the connection and socket caps: an IPv6 address by its /64
 * prefix, as one subscriber (one attacker) is handed a whole /64; an IPv4 address (mapped or not)
 * by itself.
 */
export function addressGroup(address: string): string {
  if (!ipaddr.IPv6.isValid(address)) return address;
  const ip = ipaddr.IPv6.parse(address);
  if (ip.isIPv4MappedAddress()) return ip.toIPv4Address().toString();
  return `${ip.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}
