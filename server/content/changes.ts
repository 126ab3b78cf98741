/**
 * The one place content changes are announced. Every cache built on content (the source's own
 * entries, assembled pages, page links, rendered HTML, sitemaps) subscribes; every way content can
 * change (revalidate, file watching, workbench publish, CMS webhooks, another instance) announces.
 * Whatever the content source, the same hub, so no cache is forgotten by one of them.
 */

/** Why caches are being cleared: for the log, and so a relay does not echo what it received. */
export type ChangeOrigin = 'revalidate' | 'watch' | 'publish' | 'webhook' | 'remote';

/** One entry named by a change (a webhook names them; a file watch or a revalidate does not). */
export interface ChangedEntry {
  /** Content type uid: `page`, a template type, a component type, `application_configuration`. */
  type: string;
  uid: string;
  locale?: string;
}

export interface ContentChange {
  origin: ChangeOrigin;
  /** The entries known to have changed; absent, anything may have. */
  entries?: readonly ChangedEntry[];
}

export type ChangeListener = (change: ContentChange) => void;

export interface ChangeLogger {
  warn(details: object, message: string): void;
}

/** Without the source's logger, a failing subscriber still leaves a line. */
const STDERR: ChangeLogger = { warn: (details, message) => console.error(message, details) };

export class ContentChanges {
  readonly #listeners = new Set<ChangeListener>();
  readonly #logger: ChangeLogger;

  /** `logger` hears a subscriber that threw (a cache left stale); the others are still told. */
  constructor(logger: ChangeLogger = STDERR) {
    this.#logger = logger;
  }

  /** Listens for every later change; the returned function stops listening. */
  subscribe(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Tells every subscriber, in the order they subscribed (the source's own cache first). */
  announce(change: ContentChange): void {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch (err) {
        this.#logger.warn(
          { err, origin: change.origin },
          'A content change subscriber failed; the others were still told',
        );
      }
    }
  }
}
