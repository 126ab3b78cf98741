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

export class ContentChanges {
  readonly #listeners = new Set<ChangeListener>();
  readonly #onListenerError: (error: unknown) => void;

  /** `onListenerError` hears a subscriber that threw; the others are still told. */
  constructor(onListenerError: (error: unknown) => void = () => {}) {
    this.#onListenerError = onListenerError;
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
      } catch (error) {
        this.#onListenerError(error);
      }
    }
  }
}
