import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import { restartDelay } from './restart-delay.ts';

export interface SupervisorLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface SupervisorOptions {
  workers: number;
  log: SupervisorLog;
  /** After SIGTERM or SIGINT, how long workers get to drain before they are killed. */
  graceMs: number;
}

export interface Supervisor {
  /** Resolves once every worker has exited after a shutdown signal. */
  stopped: Promise<void>;
  /** Every worker's metrics, summed (the primary serves them on METRICS_PORT). */
  metricsText(): Promise<{ contentType: string; body: string }>;
}

/**
 * The primary process of `WORKERS=N`: forks N workers that share the listening port (node:cluster
 * hands connections round-robin), replaces a worker that dies, and on SIGTERM/SIGINT tells each
 * worker to drain (SIGTERM) as a single process would, then exits when all have.
 */
export function supervise(options: SupervisorOptions): Supervisor {
  const { log } = options;
  const started = new Map<number, number>();
  let delay = 0;
  let stopping = false;
  let finish: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    finish = resolve;
  });

  const fork = (): Worker => {
    const worker = cluster.fork();
    started.set(worker.id, Date.now());
    worker.once('online', () => log.info({ worker: worker.id, workerPid: worker.process.pid }, 'Worker started'));
    return worker;
  };

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (started.get(worker.id) ?? Date.now());
    started.delete(worker.id);
    if (stopping) {
      if (started.size === 0) finish();
      return;
    }
    delay = restartDelay(lived, delay);
    log.warn({ worker: worker.id, workerPid: worker.process.pid, code, signal, restartInMs: delay }, 'Worker died');
    setTimeout(() => stopping || fork(), delay).unref();
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, workers: started.size }, 'Shutting down: draining workers');
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    if (workers.length === 0) finish();
    // Each worker drains on SIGTERM whichever signal reached us: a SIGINT sent to the supervisor
    // alone (kill -INT, a process manager) must drain them too. Workers ignore SIGINT themselves
    // (main.ts), so Ctrl-C in a terminal, which signals the whole group, is not a second signal.
    for (const worker of workers) worker.process.kill('SIGTERM');
    // A worker that does not finish within the grace period is killed, so the host's stop never hangs.
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
    }, options.graceMs).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  for (let i = 0; i < options.workers; i++) fork();
  const aggregator = new AggregatorRegistry();
  return {
    stopped,
    metricsText: async () => ({ contentType: aggregator.contentType, body: await aggregator.clusterMetrics() }),
  };
}
