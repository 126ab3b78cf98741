import t from 'tap';
import { COLLAB_HANDLERS, type CollabState, collabInit, DEMO_USERS } from './collab.ts';

/** The workbench's answers to the layer's `collab-*` requests. */

const run = (state: CollabState, type: string, data: Record<string, unknown>) =>
  COLLAB_HANDLERS[type]?.run(state, data) as Record<string, unknown>;

t.test('a thread gets comments that can be edited, paged, deleted; then it is resolved and deleted', async (t) => {
  const state: CollabState = { threads: [], comments: [] };
  const created = run(state, 'collab-create-thread', {
    elementXPath: '/html/body/main/h1',
    position: { x: 10, y: 20 },
    author: 'editor@halden.example',
    pageRoute: '/cs/kitchen',
    inviteUid: 'workbench',
    createdBy: 'u-editor',
  });
  const thread = created.thread as { _id: string; sequenceNumber: number; threadState: number };
  t.match(created, { notice: String, thread: { position: { x: 10, y: 20 }, pageRoute: '/cs/kitchen' } });
  t.equal(thread.sequenceNumber, 1);
  t.equal(thread.threadState, 1);
  const threadUid = thread._id;
  const comment = run(state, 'collab-create-comment', {
    threadUid,
    commentPayload: { message: 'Check with {{u-legal}}', toUsers: ['u-legal'], images: [] },
  }).comment as { _id: string };
  t.ok(comment._id);
  t.same(run(state, 'collab-create-comment', { threadUid, commentPayload: { message: '' } }), {}, 'empty: an error');
  t.same(run(state, 'collab-create-comment', { threadUid: 'nope', commentPayload: { message: 'x' } }), {});
  run(state, 'collab-create-comment', { threadUid, commentPayload: { message: 'Second' } });
  t.match(run(state, 'collab-edit-comment', { threadUid, commentUid: comment._id, payload: { message: 'Edited' } }), {
    comment: { message: 'Edited', updatedAt: String },
  });
  t.match(run(state, 'collab-fetch-comments', { threadUid, offset: 1, limit: 10 }), {
    comments: [{ message: 'Second' }],
    count: 2,
  });
  t.match(run(state, 'collab-delete-comment', { threadUid, commentUid: comment._id }), { notice: String });
  t.same(run(state, 'collab-delete-comment', { threadUid, commentUid: comment._id }), {});
  t.match(run(state, 'collab-resolve-thread', { threadUid, payload: { threadState: 2 } }), {
    thread: { threadState: 2 },
  });
  run(state, 'collab-missing-threads', { payload: { isElementPresent: false }, threadUids: [threadUid] });
  t.equal(state.threads[0]?.isElementPresent, false);
  t.match(run(state, 'collab-delete-thread', { threadUid }), { notice: String });
  t.same(state, { threads: [], comments: [] }, 'its comments went with it');
  t.equal(COLLAB_HANDLERS['collab-fetch-comments']?.changes, false, 'reading saves nothing');
});

t.test('the init reply carries the users for mentions and the threads', async (t) => {
  const state: CollabState = { threads: [], comments: [] };
  t.match(collabInit(state, true), {
    enable: true,
    inviteMetadata: { currentUser: { uid: 'u-editor' }, users: DEMO_USERS, inviteUid: 'workbench' },
    payload: [],
  });
});
