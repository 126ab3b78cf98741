import { STATUS_CODES } from 'node:http';
import type { HostResolver } from '../sites/resolve.ts';

/**
 * Which WebSocket upgrades the GraphQL socket takes. The upgrade never passes through Fastify, so
 * the rules its hooks apply to every request (a configured Host, load shedding) are applied here
 * again, plus one only sockets need: a browser sends cookies and opens a socket to any origin a page
 * asks for, so a page elsewhere must not be able to hold one of ours (cross-site WebSocket hijacking).
 */
export interface UpgradePolicy {
  /** The storefront a Host header names; absent, any Host is taken (the backend on its own). */
  resolveHost?: HostResolver['resolve'];
  /** Origins besides the storefronts' own that may open a socket (the editor's). */
  editorOrigins?: readonly string[];
  /** True while the process sheds load: new sockets are refused like any other request. */
  underPressure?: () => boolean;
}

/** Why an upgrade was refused: the label of the refusals metric. */
export const UPGRADE_REFUSAL_REASONS = ['malformed', 'shed', 'host', 'origin', 'socket_cap', 'pipelined'] as const;
export type UpgradeRefusalReason = (typeof UPGRADE_REFUSAL_REASONS)[number];

export interface UpgradeRefusal {
  status: 400 | 403 | 503;
  reason: UpgradeRefusalReason;
  /** Plain text for the response body: what was refused and why. */
  message: string;
}

/**
 * An upgrade sent behind requests not yet answered on its connection: a 101 would put their answers
 * inside the socket's stream, and no browser pipelines one (docs/decisions/0203-pipelined-upgrades-refused.md).
 */
export const PIPELINED_UPGRADE: UpgradeRefusal = {
  status: 400,
  reason: 'pipelined',
  message: 'Bad Request: a WebSocket upgrade must not be pipelined behind other requests',
};

/** Why an upgrade with these headers is refused, or undefined when it is taken. */
export function refuseUpgrade(
  headers: { host?: string; origin?: string; hostHeaders: number; httpVersion: string },
  policy: UpgradePolicy,
): UpgradeRefusal | undefined {
  // RFC 6455 §4.1: the opening handshake is an HTTP/1.1 request or later. An HTTP/1.0 client knows
  // no Upgrade, and no browser sends one.
  if (headers.httpVersion === '1.0' || headers.httpVersion === '0.9') {
    return { status: 400, reason: 'malformed', message: 'Bad Request: a WebSocket upgrade needs HTTP/1.1' };
  }
  // Two Host headers make the storefront ambiguous (Node keeps the first, a proxy may have used the
  // second): refused as any other request with two is (security-headers.ts).
  if (headers.hostHeaders > 1) {
    return { status: 400, reason: 'malformed', message: 'Bad Request: more than one Host header' };
  }
  if (policy.underPressure?.()) {
    return { status: 503, reason: 'shed', message: 'The server is busy. Please try again shortly.' };
  }
  if (policy.resolveHost && !('site' in policy.resolveHost(headers.host))) {
    return { status: 403, reason: 'host', message: 'Forbidden: the Host of this socket is not a storefront' };
  }
  if (headers.origin !== undefined && !originAllowed(headers.origin, headers.host, policy)) {
    return {
      status: 403,
      reason: 'origin',
      message: 'Forbidden: sockets are open to the storefronts and the editor only',
    };
  }
  return undefined;
}

/**
 * An Origin may open a socket when it is the page's own (same host as the socket), a storefront
 * named in the config (not one that only maps to the forced host, like `localhost.example`), or an
 * editor origin. `null` (sandboxed frames, files) never may.
 */
function originAllowed(origin: string, host: string | undefined, policy: UpgradePolicy): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  if (policy.editorOrigins?.includes(url.origin)) return true;
  if (host !== undefined && url.host === host.toLowerCase()) return true;
  const found = policy.resolveHost?.(url.host);
  return found !== undefined && 'site' in found && !found.forced;
}

/** The raw HTTP answer to a refused upgrade: the socket is not yet a WebSocket, so it is written by hand. */
export function upgradeRefusalResponse(refusal: UpgradeRefusal, retryAfterSeconds: number): string {
  const statusText = STATUS_CODES[refusal.status];
  const body = `${refusal.message}\n`;
  return [
    `HTTP/1.1 ${refusal.status} ${statusText}`,
    ...(refusal.status === 503 ? [`Retry-After: ${retryAfterSeconds}`] : []),
    'Content-Type: text/plain; charset=utf-8',
    'Cache-Control: no-store',
    'Connection: close',
    `Content-Length: ${Buffer.byteLength(body)}`,
    '',
    body,
  ].join('\r\n');
}
