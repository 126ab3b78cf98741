import type { Api } from './api.ts';
import type { Drafts } from './drafts.ts';

/**
 * Publish: every entry with an unpublished draft is promoted, one by one; the button stays enabled
 * while any is left (a failure leaves the rest for the next press).
 */
export async function publishDrafts(api: Api, drafts: Drafts): Promise<void> {
  for (const entry of [...drafts.dirty]) {
    await api('/__workbench/api/publish', {
      method: 'POST',
      body: JSON.stringify({ hash: drafts.hash, locale: entry.locale, type: entry.type, id: entry.id }),
    });
    drafts.dirty.delete(entry);
  }
}

export function setupPublish(
  button: HTMLButtonElement,
  api: Api,
  drafts: Drafts,
  say: (text: string, kind?: 'info' | 'error') => void,
): void {
  button.addEventListener('click', async () => {
    try {
      await publishDrafts(api, drafts);
      say('Published');
    } catch (error) {
      say(`Not published: ${(error as Error).message}`, 'error');
    } finally {
      button.disabled = drafts.dirty.size === 0;
    }
  });
}
