import t from 'tap';
import type { Api } from './api.ts';
import { offerDrafts } from './compare.ts';
import type { EditorChannel } from './protocol.ts';
import { installDom } from './test-dom.ts';
import { PUBLISHED_HASH } from './timeline.ts';

/** The compare base picker: the published page, then the other drafts of the locale. */

t.test("other drafts of the locale are offered; this tab's own and the published hash are not", async (t) => {
  installDom(t);
  const asked: string[] = [];
  const api = (async (path: string) => {
    asked.push(path);
    return { hashes: ['wb-aaaaaaaaaaaa', 'wb-mine', PUBLISHED_HASH, 'wb-bbbbbbbbbbbb'] };
  }) as Api;
  const base = document.createElement('select');
  const published = document.createElement('option');
  published.value = PUBLISHED_HASH;
  published.textContent = 'published';
  base.append(published);
  await offerDrafts(base, {
    api,
    timeline: {} as EditorChannel,
    locale: 'en-GB',
    hash: 'wb-mine',
    path: '/cs/kitchen',
    say: () => undefined,
  });
  t.same(asked, ['/__workbench/api/drafts?locale=en-GB']);
  t.same(
    [...base.querySelectorAll('option')].map((o) => [o.value, o.textContent]),
    [
      [PUBLISHED_HASH, 'published'],
      ['wb-aaaaaaaaaaaa', 'draft wb-aaaaaaaaaaaa'],
      ['wb-bbbbbbbbbbbb', 'draft wb-bbbbbbbbbbbb'],
    ],
  );
});
