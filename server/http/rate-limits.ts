import type { FastifyInstance } from 'fastify';

/**
 * Requests per minute one client address may make to the routes that write, cost or authenticate,
 * counted across every instance when the shared tier is on. Far above what an editor, a webhook
 * sender or a page's islands make; far below what a script guessing tokens or flooding GraphQL does.
 */
export const RATE_LIMITS = {
  drafts: 120,
  workbench: 600,
  revalidate: 30,
  webhook: 120,
  graphql: 1_200,
  // Page answers no cache can hold (previews, the live route, `_payload.json`): 15–34× a cached
  // page each. An editor's preview frame makes a few a minute; one address gets 10 a second.
  uncachedPages: 600,
} as const;

export type RateLimited = keyof typeof RATE_LIMITS;
export type RateLimits = Record<RateLimited, number>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The limits in force (tests lower them). */
    rateLimits: RateLimits;
  }
}

/**
 * A limiter to call from inside a route for the requests of one group (a route that answers both
 * limited and unlimited requests); none where the group runs outside the site. It throws the 429.
 */
export function limiterOf(app: FastifyInstance, name: RateLimited) {
  if (!app.hasDecorator('rateLimits') || !app.hasDecorator('rateLimit')) return undefined;
  return app.rateLimit({
    max: app.rateLimits[name],
    timeWindow: 60_000,
    keyGenerator: (request) => `${name}:${request.ip}`,
  });
}

/** The route config of a limited route group; none where the group runs outside the site (its own tests). */
export function limitOf(app: FastifyInstance, name: RateLimited) {
  if (!app.hasDecorator('rateLimits')) return {};
  return { rateLimit: { max: app.rateLimits[name], timeWindow: 60_000 } };
}
