import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

export const REQUEST_ID_HEADER = 'x-request-id';

/** What a proxy's id may look like: it lands in every log line, so nothing that could forge one. */
const ACCEPTED_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/**
 * Fastify's `genReqId`: the id a trusted proxy sent in `X-Request-Id` (the same peers TRUST_PROXY
 * lets set `X-Forwarded-*`), else a fresh UUID. A visitor cannot choose the id its requests are
 * logged under, or it could make its lines look like someone else's.
 */
export function requestIdGenerator(trustProxy: string | undefined): (request: IncomingMessage) => string {
  const addresses = (trustProxy ?? '')
    .split(',')
    .map((address) => address.trim())
    .filter(Boolean);
  const trusted = addresses.length > 0 ? proxyAddr.compile(addresses) : undefined;
  return (request) => {
    if (trusted) {
      const sent = request.headers[REQUEST_ID_HEADER];
      const peer = request.socket?.remoteAddress;
      if (typeof sent === 'string' && ACCEPTED_ID.test(sent) && peer && trusted(peer, 0)) return sent;
    }
    return randomUUID();
  };
}
