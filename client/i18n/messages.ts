import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { IntlMessageFormat } from 'intl-messageformat';
import { intlLocale } from '../../common/locales.ts';

export type MessageArgs = Record<string, string | number | Date>;
export type Translate = (key: string, args?: MessageArgs) => string;

interface CompiledLocale {
  raw: Record<string, string>;
  compiled: Map<string, IntlMessageFormat>;
}

export interface MessageCatalog {
  /** A translator for `locale`, falling back to the fallback locale, then to the key itself. */
  translator(locale: string): Promise<Translate>;
}

interface CatalogOptions {
  dir: string;
  fallbackLocale: string;
  log: { error(obj: object, msg: string): void };
}

/**
 * Messages are read and compiled on first use per locale and cached. A file that fails to
 * load is logged as `Failed locale loading` and not cached, so a later request tries again.
 */
export function createMessageCatalog({ dir, fallbackLocale, log }: CatalogOptions): MessageCatalog {
  const loaded = new Map<string, Promise<CompiledLocale | null>>();

  function load(locale: string): Promise<CompiledLocale | null> {
    let pending = loaded.get(locale);
    if (!pending) {
      pending = readFile(join(dir, `${locale}.json`), 'utf8').then(
        (text) => ({ raw: JSON.parse(text) as Record<string, string>, compiled: new Map() }),
        (error: unknown) => {
          log.error({ locale, err: error }, 'Failed locale loading');
          loaded.delete(locale);
          return null;
        },
      );
      // A file that parses badly is handled like a missing one.
      pending = pending.catch((error: unknown) => {
        log.error({ locale, err: error }, 'Failed locale loading');
        loaded.delete(locale);
        return null;
      });
      loaded.set(locale, pending);
    }
    return pending;
  }

  async function chain(locale: string): Promise<{ locale: string; messages: CompiledLocale }[]> {
    const codes = locale === fallbackLocale ? [locale] : [locale, fallbackLocale];
    const found = await Promise.all(codes.map(load));
    return codes.flatMap((code, i) => (found[i] ? [{ locale: code, messages: found[i] }] : []));
  }

  return {
    async translator(locale) {
      const sources = await chain(locale);
      return (key, args) => {
        for (const source of sources) {
          const pattern = source.messages.raw[key];
          if (pattern === undefined) continue;
          let format = source.messages.compiled.get(key);
          if (!format) {
            format = new IntlMessageFormat(pattern, intlLocale(source.locale));
            source.messages.compiled.set(key, format);
          }
          return String(format.format(args));
        }
        return key;
      };
    },
  };
}
