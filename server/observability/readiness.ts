/**
 * Readiness, as distinct from liveness: a live process may still be starting (no build to serve,
 * content not readable yet) or draining (SIGTERM received, finishing what it has). A load balancer
 * sends traffic only to a ready one; an orchestrator restarts only one that is not live.
 */

export type ReadyState = 'starting' | 'ready' | 'draining';
export type CheckState = 'ok' | 'missing' | 'loading' | 'failed';

export interface ReadinessReport {
  status: ReadyState;
  /** `shared`: the Redis tier, when configured; detail only, as instances serve without it. */
  checks: { build: CheckState; content: CheckState; shared?: 'ok' | 'slow' | 'unreachable' };
}

export interface ReadinessOptions {
  /** True when the built assets the pages link to are there. */
  buildPresent: () => boolean;
  /** One content read that proves the source answers; it warms the caches as it goes. */
  loadContent: () => Promise<unknown>;
  /** A failed content check is tried again after this long (probes come every few seconds). */
  retryMs?: number;
  /** The shared tier's state, when there is one. */
  shared?: () => 'ok' | 'slow' | 'unreachable';
}

export class Readiness {
  #options: ReadinessOptions;
  #content: CheckState = 'loading';
  #pending: Promise<void> | undefined;
  #lastAttempt = 0;
  #draining = false;

  constructor(options: ReadinessOptions) {
    this.#options = options;
  }

  /** Starts the content check (at start-up, so the first probe may already find it done). */
  start(): Promise<void> {
    if (this.#content === 'ok') return Promise.resolve();
    if (this.#pending) return this.#pending;
    this.#lastAttempt = Date.now();
    this.#pending = this.#options.loadContent().then(
      () => {
        this.#content = 'ok';
      },
      () => {
        this.#content = 'failed';
      },
    );
    this.#pending = this.#pending.finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  /** From now on not ready: the process is about to stop taking traffic. */
  drain(): void {
    this.#draining = true;
  }

  get draining(): boolean {
    return this.#draining;
  }

  report(): ReadinessReport {
    if (this.#content === 'failed' && Date.now() - this.#lastAttempt >= (this.#options.retryMs ?? 1000))
      void this.start();
    const build: CheckState = this.#options.buildPresent() ? 'ok' : 'missing';
    const content = this.#content;
    const status: ReadyState = this.#draining ? 'draining' : build === 'ok' && content === 'ok' ? 'ready' : 'starting';
    const shared = this.#options.shared?.();
    return { status, checks: { build, content, ...(shared ? { shared } : {}) } };
  }
}
