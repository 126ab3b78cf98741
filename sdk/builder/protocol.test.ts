import t from 'tap';
import { readDiscussion, readDiscussionUpdate, readHideFocusOverlay, readVariantPatch } from './protocol.ts';

t.test('discussion answers: a thread, none offered, or none yet', async (t) => {
  t.same(readDiscussion({ uid: 'd-1', title: 'T' }), { uid: 'd-1', title: 'T' });
  t.equal(readDiscussion(null), null, 'null: no comments for the field');
  t.equal(readDiscussion({ error: true }), null, 'an error flag reads as null');
  t.same(readDiscussion({}), { uid: 'new' }, 'an answer without a uid: no discussion yet');
  t.same(readDiscussion({ uid: 'new' }), { uid: 'new' });
});

t.test('update-discussion-id-for-focus-field: a null discussion becomes a new one', async (t) => {
  const base = { entryId: 'e', contentTypeId: 'ct', fieldPath: 'a.0.b' };
  t.same(readDiscussionUpdate({ ...base, discussion: null }), { ...base, discussion: { uid: 'new' } });
  t.same(readDiscussionUpdate({ ...base, discussion: { uid: 'd' } })?.discussion, { uid: 'd' });
  t.equal(readDiscussionUpdate({ entryId: 'e' }), null, 'which field is missing');
});

t.test('hide-focus-overlay flags', async (t) => {
  t.same(readHideFocusOverlay(undefined), { noTrigger: false, fromCollab: false });
  t.same(readHideFocusOverlay({ fromCollab: true }), { noTrigger: false, fromCollab: true });
  t.same(readHideFocusOverlay({ noTrigger: true, fromCollab: 'yes' }), { noTrigger: true, fromCollab: false });
});

t.test('variant-patch-update payload', async (t) => {
  t.same(
    readVariantPatch({
      highlightVariantFields: true,
      expectedCSLPValues: { variant: 'v2:a.b_c.d.e', base: 'a.b.d.e' },
    }),
    { highlight: true, variant: 'v2:a.b_c.d.e', base: 'a.b.d.e' },
  );
  t.same(readVariantPatch('nonsense'), { highlight: false, variant: undefined, base: undefined });
});
