import type { DraftStore } from '../content/draft-store.ts';
import type { ContentKey } from '../content/paths.ts';
import type { SharedRedis } from './redis.ts';

/** Drafts outlive an editing session but not forever: a week after their last save they go. */
export const DRAFT_TTL_S = 7 * 24 * 3600;
/** Comment threads go 30 days after their last write, so abandoned pages' threads do not pile up. */
export const THREADS_TTL_S = 30 * 24 * 3600;

const fieldOf = (key: ContentKey) =>
  key.kind === 'page'
    ? `${key.locale}/pages/${key.uuid}`
    : key.kind === 'entry'
      ? `${key.locale}/${key.contentType}/${key.uid}`
      : `${key.locale}/_applicationConfiguration`;

/**
 * Drafts and comment threads in Redis, so the draft API, preview and the workbench work whichever
 * instance answers: one hash per preview hash (`vitrine:drafts:{hash}`, a field per entry), one
 * key per page's threads. Shapes are checked by the callers before anything reaches a key.
 * With Redis unreachable a preview shows published content (a draft read is reported and treated
 * as none); saving fails with an error the draft API turns into a 503.
 */
export function redisDraftStore(redis: SharedRedis): DraftStore {
  const commands = redis.commands;
  const draftsKey = (hash: string) => `vitrine:drafts:${hash}`;
  const threadsKey = (locale: string, uuid: string) => `vitrine:threads:${locale}:${uuid}`;
  return {
    async read(hash, key) {
      try {
        return await commands.hget(draftsKey(hash), fieldOf(key));
      } catch (error) {
        redis.report(error, 'reading a draft');
        return null;
      }
    },
    async write(hash, key, text) {
      const [[, created]] = ((await commands
        .multi()
        .hset(draftsKey(hash), fieldOf(key), text)
        .expire(draftsKey(hash), DRAFT_TTL_S)
        .exec()) ?? [[null, 0]]) as [[unknown, number]];
      return created === 0;
    },
    async remove(hash, key) {
      return (await commands.hdel(draftsKey(hash), fieldOf(key))) > 0;
    },
    async hashes(locale) {
      const found: string[] = [];
      let cursor = '0';
      do {
        const [next, keys] = await commands.scan(cursor, 'MATCH', 'vitrine:drafts:*', 'COUNT', 200);
        cursor = next;
        for (const key of keys) {
          const fields = await commands.hkeys(key);
          if (fields.some((field) => field.startsWith(`${locale}/`))) found.push(key.slice('vitrine:drafts:'.length));
        }
      } while (cursor !== '0');
      return found.sort();
    },
    readThreads: (locale, uuid) => commands.get(threadsKey(locale, uuid)),
    async writeThreads(locale, uuid, text) {
      await commands.set(threadsKey(locale, uuid), text, 'EX', THREADS_TTL_S);
    },
    locate: (hash, key) => `redis:${draftsKey(hash)} ${fieldOf(key)}`,
  };
}
