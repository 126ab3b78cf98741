import { getHeapStatistics } from 'node:v8';
import fastifyUnderPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isStaticFile } from '../http/static-files.ts';
import { guardMemoryUsage } from './memory-usage.ts';
import { type Metrics, shedReason } from './metrics.ts';

export interface PressureOptions {
  /** Mean event-loop delay (ms) over one sample above which requests are shed; 0 turns this measure off. */
  maxEventLoopDelay?: number;
  maxHeapUsedBytes?: number;
  /** How often the process is sampled (ms). */
  sampleInterval?: number;
  /** Seconds a shed client is told to wait (`Retry-After`). */
  retryAfter?: number;
  /** Shed requests logged each interval, each on its line; the rest are told in one summary line. */
  shedLog?: { lines: number; intervalMs: number };
}

/**
 * Shedding thresholds: well past anything a saturated benchmark produces (its event loop runs at full
 * utilisation with mean delays of tens of ms), but before the process stalls or runs out of heap.
 */
const PRESSURE_DEFAULTS = {
  maxEventLoopDelay: 1000,
  maxHeapUsedBytes: Math.round(getHeapStatistics().heap_size_limit * 0.9),
  sampleInterval: 500,
  retryAfter: 10,
  shedLog: { lines: 10, intervalMs: 10_000 },
} satisfies PressureOptions;

/**
 * Sheds load with 503 and Retry-After before the event loop stalls or the heap runs out. Probes are
 * never shed, so an orchestrator does not take a busy process for a dead one; nor are static files
 * that are there, which cost next to nothing and without which a page already sent breaks (an
 * island that cannot load its script never hydrates). Returns the answer to a static file that is
 * not there: misses are what a client can ask for without end, so they are shed like pages.
 */
export async function shedUnderPressure(
  app: FastifyInstance,
  overrides: PressureOptions | undefined,
  metrics: Metrics | undefined,
): Promise<(request: FastifyRequest, reply: FastifyReply) => FastifyReply> {
  const pressure = { ...PRESSURE_DEFAULTS, ...overrides };
  // under-pressure samples memoryUsage() from a timer: a failing read must not end the process.
  guardMemoryUsage();
  const logShed = shedLogBudget(app, pressure.shedLog);
  await app.register(fastifyUnderPressure, {
    maxEventLoopDelay: pressure.maxEventLoopDelay,
    maxHeapUsedBytes: pressure.maxHeapUsedBytes,
    sampleInterval: pressure.sampleInterval,
    pressureHandler: (request, reply, type) => {
      // Orchestrators must still see the process alive: probes are never shed. Pages and APIs are,
      // whatever host it answers for (GraphQL included: it is where the cost comes from).
      if (request.routeOptions.config?.probe || isStaticFile(request.url)) return;
      logShed(request, type);
      metrics?.shed(shedReason(type));
      reply.status(503).header('retry-after', String(pressure.retryAfter)).header('cache-control', 'no-store');
      reply.type('text/html; charset=utf-8');
      // under-pressure sends what the handler returns as the body (its types say void).
      return SHED_BODY as unknown as undefined;
    },
  });
  return (request, reply) => {
    if (app.isUnderPressure()) {
      logShed(request, 'static miss');
      metrics?.shed(shedReason(undefined));
      return reply
        .status(503)
        .header('retry-after', String(pressure.retryAfter))
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(SHED_BODY);
    }
    // Lean: a missing file gets a line of text, never the rendered error page.
    return reply.status(404).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(MISS_BODY);
  };
}

/**
 * Logs a shed request while the interval's lines last, then counts the rest and tells them in one
 * line at the interval's end: a client can have requests shed at its own rate, but not the log
 * written at it (61,588 lines in 30 s once). Every shed request is still counted in the metrics.
 */
function shedLogBudget(app: FastifyInstance, { lines, intervalMs }: { lines: number; intervalMs: number }) {
  let logged = 0;
  let more = 0;
  let counting = false;
  return (request: FastifyRequest, type: string | undefined) => {
    if (!counting) {
      counting = true;
      setTimeout(() => {
        if (more > 0)
          app.log.warn({ more }, `Under pressure: ${more} more requests shed in the last ${intervalMs / 1000} s`);
        logged = 0;
        more = 0;
        counting = false;
      }, intervalMs).unref();
    }
    if (logged++ < lines) request.log.warn({ type }, 'Under pressure: request shed');
    else more++;
  };
}

const MISS_BODY = 'Not found\n';

/** What a shed request gets: static, so shedding costs next to nothing. */
const SHED_BODY =
  '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>503 Service Unavailable</title></head>' +
  '<body><h1>503 Service Unavailable</h1><p>The server is busy. Please try again shortly.</p></body></html>';
