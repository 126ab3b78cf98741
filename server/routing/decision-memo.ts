import type { Site } from '../../common/site.ts';
import type { RenderDecision, RequestFacts, RouteDecision } from './decision.ts';
import { decideRoute } from './route.ts';

/** Decisions kept per storefront; a full memo starts again, so made-up URLs cost it, never memory. */
export const DECISIONS_KEPT = 2048;

/**
 * The router's decision for a URL asked for again: parsing, decoding and matching the same path on
 * every request cost the cached page a tenth of its time (issue 37). Only render decisions that
 * depend on nothing but the storefront and the URL are kept: one that came from the language
 * cookie or Accept-Language (it carries `varyOn`) or carries warnings to log is decided each time,
 * as is every redirect and error. The storefronts and the fallback locale are fixed for the
 * process, so a kept decision stays true until it restarts.
 */
export class RouteDecisions {
  readonly #kept = new Map<Site, Map<string, RenderDecision>>();
  readonly #max: number;

  constructor(max = DECISIONS_KEPT) {
    this.#max = max;
  }

  decide(facts: RequestFacts): RouteDecision {
    let kept = this.#kept.get(facts.site);
    // rawPath holds no `?`, so path and query joined name one URL.
    const url = facts.rawPath + facts.query;
    const known = kept?.get(url);
    if (known) return known;
    const decision = decideRoute(facts);
    if (decision.kind !== 'render' || decision.varyOn || decision.warnings) return decision;
    if (!kept) {
      kept = new Map();
      this.#kept.set(facts.site, kept);
    }
    if (kept.size >= this.#max) kept.clear();
    // Shared by every request for the URL: nobody may change it.
    kept.set(url, Object.freeze(decision));
    return decision;
  }

  /** Decisions kept for a storefront (tests). */
  size(site: Site): number {
    return this.#kept.get(site)?.size ?? 0;
  }
}
