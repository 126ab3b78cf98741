import type { RouteRule, Site } from '../../common/site.ts';
import type { RedirectDecision } from './decision.ts';
import { parsePath } from './path.ts';
import { buildLocation, isAllowedRedirectStatus } from './redirect.ts';

export interface RouteRuleOutcome {
  redirect: RedirectDecision | null;
  /** A matching rule that was refused: the caller logs these; the request goes on as if the rule were absent. */
  warnings: string[];
}

/**
 * A storefront's routeRules, matched like Nitro does on the server: on the decoded path without query
 * and trailing slashes (so `/de/cs/aktion/` fires in one hop), before any page validation (so a
 * rule may sit on a path that would otherwise 404). Keys are exact paths; there are no wildcards.
 *
 * Query: kept on same-site targets (campaign parameters must survive a vanity URL; appended after
 * the target's own query), dropped on external ones so nothing of the request, a preview hash
 * included, is handed to another host.
 */
export function applyRouteRules(site: Site, path: string, query: string): RouteRuleOutcome {
  const match = rulesOf(site).get(path);
  if (!match) return { redirect: null, warnings: [] };
  const [key, rule] = match;
  const result = redirectFor(site, path, rule, query);
  if (typeof result === 'string') return { redirect: null, warnings: [`route rule "${key}" ignored: ${result}`] };
  return { redirect: result, warnings: [] };
}

const DEFAULT_STATUS = 301;

function redirectFor(site: Site, path: string, rule: RouteRule, query: string): RedirectDecision | string {
  const spec = typeof rule?.redirect === 'string' ? { to: rule.redirect } : rule?.redirect;
  if (!spec || typeof spec.to !== 'string') return 'no redirect target';
  const status = spec.statusCode ?? DEFAULT_STATUS;
  if (!isAllowedRedirectStatus(status)) return `status ${status} is not one of 301, 302, 307, 308`;
  const location = buildLocation(site, spec.to, { external: spec.external === true });
  if (location === null) {
    return `target "${spec.to}" refused (only http(s) targets; another host only when marked external)`;
  }
  if (!location.startsWith('/')) return { kind: 'redirect', status, location };
  const target = parsePath(location.replace(/[?#].*$/, ''));
  if (target.ok && target.path === path) return `target "${spec.to}" redirects to itself`;
  return { kind: 'redirect', status, location: buildLocation(site, withQuery(location, query)) ?? location };
}

function withQuery(location: string, query: string): string {
  const params = query.slice(1);
  if (params === '') return location;
  const hashAt = location.indexOf('#');
  const base = hashAt === -1 ? location : location.slice(0, hashAt);
  const hash = hashAt === -1 ? '' : location.slice(hashAt);
  return `${base}${base.includes('?') ? '&' : '?'}${params}${hash}`;
}

/** Rule keys normalised once per site object the way request paths are (decoded, no trailing slash). */
const normalised = new WeakMap<Site, Map<string, [string, RouteRule]>>();

function rulesOf(site: Site): Map<string, [string, RouteRule]> {
  let rules = normalised.get(site);
  if (rules) return rules;
  rules = new Map();
  for (const [key, rule] of Object.entries(site.routeRules ?? {})) {
    const parsed = parsePath(key);
    if (parsed.ok && !rules.has(parsed.path)) rules.set(parsed.path, [key, rule]);
  }
  normalised.set(site, rules);
  return rules;
}
