import type { ContentService } from '../content/service.ts';
import { CONTENT_OPERATIONS, type ContentOperation, type ContentSource, type Metrics } from './metrics.ts';

const OPERATIONS: ReadonlySet<string> = new Set<string>(CONTENT_OPERATIONS);

/**
 * The content service with every read timed and every failure counted, by source. Anything else the
 * service offers (invalidation, close) passes through untouched, bound to the service itself.
 */
export function instrumentContent<T extends ContentService>(content: T, metrics: Metrics, source: ContentSource): T {
  metrics.contentSource(source);
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
              metrics.contentRead(source, property as ContentOperation, (performance.now() - started) / 1000, failed);
            }
          }
        : method.bind(target);
      wrapped.set(property, fn);
      return fn;
    },
  });
}
