import { createSigner, createVerifier } from 'fast-jwt';

/**
 * Bearer tokens for the data backend: JWTs signed with HMAC-SHA256 and a secret from the
 * environment (GRAPHQL_TOKEN_SECRET). Anonymous reads need no token; a token that is sent must be
 * valid. Only HS256 is accepted, so a token cannot pick its own (weaker or "none") algorithm.
 */

/** Who a valid token speaks for. */
export interface Viewer {
  sub: string;
  /** `catalog:write` may change prices and availability (the test and demo trigger). */
  roles: string[];
}

export interface Tokens {
  sign(viewer: Viewer, expiresInMs?: number): string;
  /** The viewer, or null for a token that is malformed, forged, expired or from another issuer. */
  verify(token: string): Viewer | null;
}

export const CATALOG_WRITE = 'catalog:write';
/** Below this a secret is guessable offline from any one token. */
export const MIN_SECRET_LENGTH = 32;
const ISSUER = 'vitrine';
/** The token cookie's lifetime: a token never outlives the cookie that holds it. */
const DEFAULT_EXPIRY_MS = 604_800_000;

export function createTokens(secret: string): Tokens {
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new RangeError(`The token secret needs at least ${MIN_SECRET_LENGTH} characters`);
  }
  const signers = new Map<number, (payload: Record<string, unknown>) => string>();
  const verifier = createVerifier({
    key: secret,
    algorithms: ['HS256'],
    allowedIss: ISSUER,
    requiredClaims: ['sub', 'exp'],
    // Sockets reconnect with the same token: verified tokens are remembered until they expire.
    cache: 1000,
  });
  return {
    sign(viewer, expiresInMs = DEFAULT_EXPIRY_MS) {
      let signer = signers.get(expiresInMs);
      if (!signer) {
        signer = createSigner({ key: secret, algorithm: 'HS256', iss: ISSUER, expiresIn: expiresInMs });
        signers.set(expiresInMs, signer);
      }
      return signer({ sub: viewer.sub, roles: viewer.roles });
    },
    verify(token) {
      try {
        const claims = verifier(token) as { sub?: unknown; roles?: unknown };
        if (typeof claims.sub !== 'string') return null;
        const roles = Array.isArray(claims.roles) ? claims.roles.filter((r) => typeof r === 'string') : [];
        return { sub: claims.sub, roles };
      } catch {
        return null;
      }
    },
  };
}

/**
 * The token in an `Authorization: Bearer …` value: undefined when there is none (anonymous), null
 * when the value is there but not a bearer credential (refused like a bad token).
 */
export function bearerToken(value: unknown): string | undefined | null {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') return null;
  const match = /^Bearer +(\S+)$/i.exec(value.trim());
  return match ? (match[1] as string) : null;
}
