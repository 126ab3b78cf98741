import t, { type Test } from 'tap';
import type { Api } from './api.ts';
import type { Drafts } from './drafts.ts';
import type { EditedEntry } from './entries.ts';
import { setupPublish } from './publish.ts';
import { deferred, installDom } from './test-dom.ts';

/** Publish: each unpublished draft promoted once; a failure leaves the rest for the next press. */

const entry = (id: string): EditedEntry => ({
  type: 'pages',
  id,
  contentType: 'page',
  uid: id,
  locale: 'en-GB',
  value: {},
});

function setup(t: Test, failOn?: string) {
  installDom(t);
  const posted: unknown[] = [];
  const api = (async (_path: string, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as { id: string };
    if (body.id === failOn) throw new Error('conflict');
    posted.push(body);
    return {};
  }) as Api;
  const [a, b] = [entry('1'), entry('2')];
  const drafts = { hash: 'wb-0123456789ab', dirty: new Set([a, b]) } as unknown as Drafts;
  const button = document.createElement('button');
  const said = deferred<[string, string | undefined]>();
  setupPublish(button, api, drafts, (text, kind) => said.resolve([text, kind]));
  return { button, drafts, posted, said };
}

t.test('every dirty entry is published under the hash; then Publish is disabled', async (t) => {
  const { button, drafts, posted, said } = setup(t);
  button.click();
  t.same(await said.promise, ['Published', undefined]);
  t.same(posted, [
    { hash: 'wb-0123456789ab', locale: 'en-GB', type: 'pages', id: '1' },
    { hash: 'wb-0123456789ab', locale: 'en-GB', type: 'pages', id: '2' },
  ]);
  t.equal(drafts.dirty.size, 0);
  t.equal(button.disabled, true);
});

t.test('a failure is said; what was not published stays, and so does the button', async (t) => {
  const { button, drafts, posted, said } = setup(t, '2');
  button.click();
  t.same(await said.promise, ['Not published: conflict', 'error']);
  t.equal(posted.length, 1);
  t.same(
    [...drafts.dirty].map((e) => e.id),
    ['2'],
  );
  t.equal(button.disabled, false);
});
