import type { Api } from './api.ts';
import { h } from './h.ts';
import type { EditorChannel } from './protocol.ts';
import { compareWith, PUBLISHED_HASH, removeCompare } from './timeline.ts';

/**
 * Compare: the Base picker offers the published page and the other drafts of this locale; the
 * button shows the difference in the page (timeline channel) and, pressed again, ends it.
 */

export interface CompareDeps {
  api: Api;
  timeline: EditorChannel;
  locale: string;
  /** This tab's draft hash: not offered as a base. */
  hash: string;
  /** The framed page's path. */
  path: string;
  say(text: string, kind?: 'info' | 'error'): void;
}

/** Adds the other drafts of the locale to the base picker. */
export async function offerDrafts(base: HTMLSelectElement, { api, locale, hash }: CompareDeps): Promise<void> {
  const { hashes } = await api<{ hashes: string[] }>(`/__workbench/api/drafts?${new URLSearchParams({ locale })}`);
  for (const other of hashes.filter((h) => h !== hash && h !== PUBLISHED_HASH))
    base.append(h('option', { value: other }, `draft ${other}`));
}

export function setupCompare(base: HTMLSelectElement, button: HTMLButtonElement, deps: CompareDeps): void {
  const { timeline, path, say } = deps;
  offerDrafts(base, deps).catch(() => undefined);
  let comparing = false;
  button.addEventListener('click', async () => {
    try {
      if (comparing) {
        await removeCompare(timeline);
        button.textContent = 'Compare';
      } else {
        const changed = await compareWith(timeline, path, base.value);
        button.textContent = 'End compare';
        const against = base.value === PUBLISHED_HASH ? 'the published page' : `draft ${base.value}`;
        say(`${changed} field(s) differ from ${against}`);
      }
      comparing = !comparing;
    } catch (error) {
      say(`Compare failed: ${(error as Error).message}`, 'error');
    }
  });
}
