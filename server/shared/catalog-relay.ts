import type { Catalog, ProductChange } from '../data/catalog.ts';
import type { SharedRedis } from './redis.ts';

export const CATALOG_CHANNEL = 'vitrine:catalog';

/**
 * Price and availability changes across instances: a change made here (a mutation, the demo's
 * ticker) is published, and one made elsewhere is applied here, so every instance answers the same
 * price and its subscribers hear of it, whichever instance their socket reached.
 */
export function relayCatalog(catalog: Catalog, redis: SharedRedis): Catalog {
  redis.subscriber.subscribe(CATALOG_CHANNEL).catch((error: unknown) => redis.report(error, 'subscribing'));
  redis.subscriber.on('message', (channel: string, text: string) => {
    if (channel !== CATALOG_CHANNEL) return;
    const message = parse(text);
    if (!message || message.from === redis.instance) return;
    try {
      catalog.update(message.change);
    } catch {
      // A change this instance's catalog refuses (another version of the code): not ours to apply.
    }
  });
  return {
    ...catalog,
    update(change) {
      const product = catalog.update(change);
      if (product) {
        const message = JSON.stringify({ from: redis.instance, change });
        redis.commands.publish(CATALOG_CHANNEL, message).catch((error: unknown) => {
          redis.report(error, 'publishing a price change');
        });
      }
      return product;
    },
  };
}

function parse(text: string): { from: string; change: ProductChange } | null {
  try {
    const value = JSON.parse(text) as { from?: unknown; change?: Partial<ProductChange> };
    const change = value.change;
    if (typeof value.from !== 'string' || typeof change?.id !== 'string' || typeof change.locale !== 'string')
      return null;
    return {
      from: value.from,
      change: {
        id: change.id,
        locale: change.locale,
        ...(typeof change.amount === 'number' ? { amount: change.amount } : {}),
        ...(typeof change.availability === 'string' ? { availability: change.availability } : {}),
      },
    };
  } catch {
    return null;
  }
}
