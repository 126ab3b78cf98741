import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { UPGRADE_REFUSAL_REASONS, type UpgradeRefusalReason } from '../data/upgrade-policy.ts';
import type { ConnectionCut, ConnectionRefusal } from '../http/connection-caps.ts';
import type { CacheLookup } from '../render/html-cache.ts';
import type { RouteKind, StatusClass } from './route-kind.ts';

/** Where content is read from. */
export type ContentSource = 'embedded' | 'upstream';
/** The content reads the renderer makes (the ContentService methods). */
export const CONTENT_OPERATIONS = ['getPage', 'getEntry', 'getApplicationConfiguration', 'hasPage'] as const;
export type ContentOperation = (typeof CONTENT_OPERATIONS)[number];
/** Why under-pressure shed a request. */
const SHED_REASONS = ['event_loop_delay', 'event_loop_utilization', 'heap', 'rss', 'other'] as const;
export type ShedReason = (typeof SHED_REASONS)[number];
/** A render for the HTML cache (whole document) or streamed to one visitor (until the shell). */
export type RenderMode = 'cached' | 'streamed';

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The server's Prometheus metrics, in a registry of their own (several servers in one test process
 * never share counters). Built only when metrics are on: with them off no hook is registered and no
 * recorder is called, so they cost nothing.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly #requests = new Counter({
    name: 'vitrine_http_requests_total',
    help: 'HTTP requests answered, by route kind and status class.',
    labelNames: ['kind', 'status_class'] as const,
    registers: [this.registry],
  });
  readonly #duration = new Histogram({
    name: 'vitrine_http_request_duration_seconds',
    help: 'Time from receiving a request to its response being sent, by route kind and status class.',
    labelNames: ['kind', 'status_class'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly #cache = new Counter({
    name: 'vitrine_html_cache_lookups_total',
    help: 'Rendered-HTML cache lookups by result: hit, miss (rendered), stale (served while re-rendering), coalesced (waited on a render in flight).',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  readonly #contentDuration = new Histogram({
    name: 'vitrine_content_read_duration_seconds',
    help: 'Content reads by source and operation, failed ones included.',
    labelNames: ['source', 'operation'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly #contentErrors = new Counter({
    name: 'vitrine_content_read_errors_total',
    help: 'Content reads that failed, by source and operation.',
    labelNames: ['source', 'operation'] as const,
    registers: [this.registry],
  });
  readonly #render = new Histogram({
    name: 'vitrine_render_duration_seconds',
    help: 'React render time: the whole document for the HTML cache, or until the shell when streamed.',
    labelNames: ['mode'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly #shed = new Counter({
    name: 'vitrine_shed_requests_total',
    help: 'Requests answered 503 by load shedding, by the measure that was over its limit.',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly #connectionsRefused = new Counter({
    name: 'vitrine_connections_refused_total',
    help: 'TCP connections closed as they were accepted: over the per-address or the total cap.',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly #idleConnectionsClosed = new Counter({
    name: 'vitrine_connections_idle_closed_total',
    help: 'Kept-alive connections with nothing in flight, or connections the server has ended, closed to make room for a newcomer at the total cap.',
    registers: [this.registry],
  });
  readonly #connectionsCut = new Counter({
    name: 'vitrine_connections_cut_total',
    help: 'Admitted connections closed early: pipelined past the bound, or incomplete when a newcomer needed the place.',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly #waitedTurn = new Counter({
    name: 'vitrine_requests_waited_turn_total',
    help: 'Pipelined requests that waited for the answer before them on their connection before any work was done for them.',
    registers: [this.registry],
  });
  readonly #upgradesRefused = new Counter({
    name: 'vitrine_websocket_upgrades_refused_total',
    help: 'WebSocket upgrades answered with an error and closed, by why (malformed, shed, host, origin, socket_cap, pipelined).',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  /** Counts the TCP connections open now; set by the server that caps them. */
  connectionsOpen: () => number = () => 0;
  /** Counts the GraphQL subscriptions open now; set by the server that holds the sockets. */
  subscriptionsOpen: () => number = () => 0;

  constructor() {
    // Process metrics: CPU, memory, heap spaces, GC, event-loop delay, handles, nodejs_version_info.
    collectDefaultMetrics({ register: this.registry });
    renameActiveTotals(this.registry);
    const subscriptionsOpen = () => this.subscriptionsOpen();
    new Gauge({
      name: 'vitrine_websocket_subscriptions_open',
      help: 'GraphQL subscriptions open over WebSocket.',
      registers: [this.registry],
      // Counted when scraped: nothing to keep in step as sockets come and go.
      collect() {
        this.set(subscriptionsOpen());
      },
    });
    const connectionsOpen = () => this.connectionsOpen();
    new Gauge({
      name: 'vitrine_connections_open',
      help: 'TCP connections the server holds now, of every kind.',
      registers: [this.registry],
      collect() {
        this.set(connectionsOpen());
      },
    });
    // Every label combination from the start, so a dashboard shows 0 rather than no data.
    for (const result of ['hit', 'miss', 'stale', 'coalesced'] as const) this.#cache.inc({ result }, 0);
    for (const reason of SHED_REASONS) this.#shed.inc({ reason }, 0);
    for (const reason of ['per_address', 'total'] as const) this.#connectionsRefused.inc({ reason }, 0);
    for (const reason of UPGRADE_REFUSAL_REASONS) this.#upgradesRefused.inc({ reason }, 0);
  }

  connectionRefused(reason: ConnectionRefusal): void {
    this.#connectionsRefused.inc({ reason });
  }

  idleConnectionClosed(): void {
    this.#idleConnectionsClosed.inc();
  }

  connectionCut(reason: ConnectionCut): void {
    this.#connectionsCut.inc({ reason });
  }

  requestWaitedTurn(): void {
    this.#waitedTurn.inc();
  }

  upgradeRefused(reason: UpgradeRefusalReason): void {
    this.#upgradesRefused.inc({ reason });
  }

  /** Lists a content source's error counters at 0 before its first failure. */
  contentSource(source: ContentSource): void {
    for (const operation of CONTENT_OPERATIONS) this.#contentErrors.inc({ source, operation }, 0);
  }

  request(kind: RouteKind, statusClass: StatusClass, seconds: number): void {
    this.#requests.inc({ kind, status_class: statusClass });
    this.#duration.observe({ kind, status_class: statusClass }, seconds);
  }

  cacheLookup(result: CacheLookup): void {
    this.#cache.inc({ result });
  }

  contentRead(source: ContentSource, operation: ContentOperation, seconds: number, failed: boolean): void {
    this.#contentDuration.observe({ source, operation }, seconds);
    if (failed) this.#contentErrors.inc({ source, operation });
  }

  render(mode: RenderMode, seconds: number): void {
    this.#render.observe({ mode }, seconds);
  }

  shed(reason: ShedReason): void {
    this.#shed.inc({ reason });
  }

  /** The Prometheus text exposition of every metric. */
  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/**
 * prom-client's totals of active handles, requests and resources are gauges named `…_total`, a
 * suffix Prometheus keeps for counters (`promtool check metrics` rejects them), and the names
 * without it are taken by the per-type gauges. They are exported as `…_all` instead, with the same
 * values (docs/decisions/0120-active-totals-renamed.md).
 */
function renameActiveTotals(registry: Registry): void {
  for (const kind of ['handles', 'requests', 'resources']) {
    const original = registry.getSingleMetric(`nodejs_active_${kind}_total`);
    // Absent on a Node that lacks the API it reads.
    if (!original) continue;
    registry.removeSingleMetric(`nodejs_active_${kind}_total`);
    new Gauge({
      name: `nodejs_active_${kind}_all`,
      help: `Active ${kind} of every type together (prom-client's nodejs_active_${kind}_total).`,
      registers: [registry],
      async collect() {
        this.set((await original.get()).values[0]?.value ?? 0);
      },
    });
  }
}

/** under-pressure's type names, mapped onto the fixed label set. */
export function shedReason(type: string | undefined): ShedReason {
  switch (type) {
    case 'eventLoopDelay':
      return 'event_loop_delay';
    case 'eventLoopUtilization':
      return 'event_loop_utilization';
    case 'heapUsedBytes':
      return 'heap';
    case 'rssBytes':
      return 'rss';
    default:
      return 'other';
  }
}
