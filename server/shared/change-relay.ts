import type { ContentChange, ContentChanges } from '../content/changes.ts';
import type { PageTier } from './page-tier.ts';
import type { SharedRedis } from './redis.ts';

export const CHANGES_CHANNEL = 'vitrine:changes';

interface RelayedChange {
  from: string;
  change: ContentChange;
  /** The shared pages' generation the change moved to, when there is a page tier. */
  generation?: number;
}

/**
 * Content changes across instances: what this instance announces (revalidate, a webhook, a
 * publish, a file change) is published; what another one published is announced here as `remote`
 * and never published again. When Redis comes back after an outage that cut the subscription,
 * messages may have been missed, so every cache here is cleared once. The shared pages move to a new generation before the others
 * hear of the change, so none of them serves a page built from the content before it.
 */
export function relayChanges(changes: ContentChanges, redis: SharedRedis, pages?: PageTier): void {
  changes.subscribe((change) => {
    if (change.origin === 'remote') return;
    void (async () => {
      const generation = await pages?.bump();
      const message: RelayedChange = { from: redis.instance, change, ...(generation ? { generation } : {}) };
      await redis.commands.publish(CHANGES_CHANNEL, JSON.stringify(message));
    })().catch((error: unknown) => redis.report(error, 'publishing a content change'));
  });
  redis.subscriber.subscribe(CHANGES_CHANNEL).catch((error: unknown) => redis.report(error, 'subscribing'));
  redis.subscriber.on('message', (channel: string, text: string) => {
    if (channel !== CHANGES_CHANNEL) return;
    const message = parse(text);
    if (!message || message.from === redis.instance) return;
    pages?.adopt(message.generation);
    changes.announce({ ...message.change, origin: 'remote' });
  });
  redis.onRecover((missed) => {
    if (missed) changes.announce({ origin: 'remote' });
  });
}

/** A message of the channel, or null for anything else on it (never trusted further than its shape). */
function parse(text: string): RelayedChange | null {
  try {
    const value = JSON.parse(text) as Partial<RelayedChange>;
    if (typeof value.from !== 'string' || typeof value.change !== 'object' || value.change === null) return null;
    const entries = Array.isArray(value.change.entries)
      ? value.change.entries.filter(
          (e) => typeof e === 'object' && e !== null && typeof e.type === 'string' && typeof e.uid === 'string',
        )
      : undefined;
    const generation = typeof value.generation === 'number' ? value.generation : undefined;
    return {
      from: value.from,
      change: { origin: 'remote', ...(entries ? { entries } : {}) },
      ...(generation !== undefined ? { generation } : {}),
    };
  } catch {
    return null;
  }
}
