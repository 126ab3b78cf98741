import type { ContentService } from '../content/service.ts';
import { CONTENT_OPERATIONS, type ContentOperation, type ContentSource, type Metrics } from './metrics.ts';

/** Who is told of each read: the metrics, the tracing. */
export type ContentReporter = Pick<Metrics, 'contentRead'>;

const OPERATIONS: ReadonlySet<string> = new Set<string>(CONTENT_OPERATIONS);

/**
 * The content service with every read timed and every failure counted, by source. Anything else the
 * service offers (invalidation, close) passes through untouched, bound to the service itself.
 */
export function instrumentContent<T extends ContentService>(
  content: T,
  source: ContentSource,
  reporters: readonly ContentReporter[],
): T {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(content, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      let fn = wrapped.get(property);
      if (fn) return fn;
      const method = value as (...args: unknown[]) => unknown;
      fn = OPERATIONS.has(String(property))
        ? async (...args: unknown[]) => {
            const started = performance.now();
            let failed = true;
            try {
              const result = await method.apply(target, args);
              failed = false;
              return result;
            } finally {
              const seconds = (performance.now() - started) / 1000;
              for (const reporter of reporters)
                reporter.contentRead(source, property as ContentOperation, seconds, failed);
            }
          }
        : method.bind(target);
      wrapped.set(property, fn);
      return fn;
    },
  });
}
