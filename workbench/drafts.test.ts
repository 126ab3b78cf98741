import t from 'tap';
import type { Api } from './api.ts';
import { createDrafts, draftUrl, sessionHash } from './drafts.ts';
import { deferred } from './test-dom.ts';
import { dishwasherEntry } from './test-entry.ts';

/** Drafts: where they are written, when the page is told, what Publish is left with. */

const entry = () => dishwasherEntry({ title: 'A' });

function setup(fail = false) {
  const calls: { path: string; init?: RequestInit }[] = [];
  const said: [string, string | undefined][] = [];
  const announced: string[] = [];
  let saved = 0;
  const called = deferred();
  const api = (async (path: string, init?: RequestInit) => {
    calls.push({ path, init });
    called.resolve();
    if (fail) throw new Error('$.title: Expected string');
    return {};
  }) as Api;
  const drafts = createDrafts({
    api,
    hash: 'wb-0123456789ab',
    announce: async (hash) => announced.push(hash),
    say: (text, kind) => said.push([text, kind]),
    saved: () => saved++,
  });
  return { drafts, calls, said, announced, called, saved: () => saved };
}

t.test('a draft is written under the hash, then the page is told; the entry waits for Publish', async (t) => {
  const { drafts, calls, announced, said, saved } = setup();
  const edited = entry();
  await drafts.save(edited);
  t.equal(calls[0]?.path, '/cs/api/contentstack/_drafts/wb-0123456789ab/en-GB/page_template/dishwasher');
  t.equal(calls[0]?.path, draftUrl('wb-0123456789ab', edited));
  t.same(JSON.parse(String(calls[0]?.init?.body)), edited.value);
  t.equal(calls[0]?.init?.method, 'PUT');
  t.same(announced, ['wb-0123456789ab']);
  t.ok(drafts.dirty.has(edited));
  t.equal(saved(), 1);
  t.same(said, [['Draft saved (page_template dishwasher)', undefined]]);
});

t.test('a value the page typed is saved without telling the page', async (t) => {
  const { drafts, announced } = setup();
  await drafts.save(entry(), false);
  t.same(announced, []);
});

t.test('a refused draft is said as an error and not left for Publish', async (t) => {
  const { drafts, said, announced } = setup(true);
  const edited = entry();
  await drafts.save(edited);
  t.same(said, [['Draft not saved: $.title: Expected string', 'error']]);
  t.notOk(drafts.dirty.has(edited));
  t.same(announced, []);
});

t.test('a burst of typing saves once', async (t) => {
  const { drafts, calls, called } = setup();
  const edited = entry();
  drafts.saveSoon(edited);
  drafts.saveSoon(edited);
  drafts.saveSoon(edited);
  await called.promise;
  t.equal(calls.length, 1);
});

t.test('the session hash is made once: wb- and 12 hex digits', async (t) => {
  const store = new Map<string, string>();
  const storage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => store.set(k, v),
  } as unknown as Storage;
  const hash = sessionHash(storage, () => '0123abcd-4567-89ef-0000-000000000000');
  t.equal(hash, 'wb-0123abcd4567');
  t.equal(
    sessionHash(storage, () => 'ffffffff-ffff-ffff-ffff-ffffffffffff'),
    hash,
  );
});
