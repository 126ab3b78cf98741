/**
 * Collaboration for the workbench: the threads and comments of one page, answered
 * to the layer's `collab-*` requests and kept by the server in a JSON file per page under the draft
 * area. Pure: every function changes the given state and returns the answer the layer expects.
 */

export interface User {
  uid: string;
  email: string;
  firstName: string;
  lastName: string;
  display: string;
}

export interface Thread {
  _id: string;
  author: string;
  inviteUid: string;
  position: { x: number; y: number };
  elementXPath: string;
  isElementPresent: boolean;
  pageRoute: string;
  createdBy: string;
  sequenceNumber: number;
  /** 1 open, 2 resolved. */
  threadState: number;
  createdAt: string;
  updatedAt?: string;
}

export interface Comment {
  _id: string;
  threadUid: string;
  message: string;
  author: string;
  toUsers: string[];
  images: string[];
  createdAt: string;
  createdBy: string;
  updatedAt?: string;
}

export interface CollabState {
  threads: Thread[];
  comments: Comment[];
}

/** Demo users for mentions (`{{uid}}` placeholders in messages). */
export const DEMO_USERS: User[] = [
  { uid: 'u-editor', email: 'editor@halden.example', firstName: 'Eda', lastName: 'Editor', display: 'Eda Editor' },
  { uid: 'u-legal', email: 'legal@halden.example', firstName: 'Lou', lastName: 'Legal', display: 'Lou Legal' },
  { uid: 'u-brand', email: 'brand@halden.example', firstName: 'Bo', lastName: 'Brand', display: 'Bo Brand' },
];
export const CURRENT_USER = DEMO_USERS[0] as User;
export const INVITE_UID = 'workbench';

/** What the builder's `init` reply carries under `collab`. */
export function collabInit(state: CollabState, enable: boolean) {
  return {
    enable,
    isFeedbackMode: enable,
    inviteMetadata: {
      currentUser: { uid: CURRENT_USER.uid, email: CURRENT_USER.email },
      users: DEMO_USERS,
      inviteUid: INVITE_UID,
    },
    payload: state.threads,
  };
}

const newId = () => crypto.randomUUID().replace(/-/g, '').slice(0, 24);
const now = () => new Date().toISOString();
type Rec = Record<string, unknown>;
const str = (value: unknown) => (typeof value === 'string' ? value : '');
const strings = (value: unknown) =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

export function createThread(state: CollabState, data: Rec) {
  const position = (data.position ?? {}) as Rec;
  const thread: Thread = {
    _id: newId(),
    author: str(data.author) || CURRENT_USER.email,
    inviteUid: str(data.inviteUid) || INVITE_UID,
    position: { x: Number(position.x) || 0, y: Number(position.y) || 0 },
    elementXPath: str(data.elementXPath),
    isElementPresent: true,
    pageRoute: str(data.pageRoute) || '/',
    createdBy: str(data.createdBy) || CURRENT_USER.uid,
    sequenceNumber: state.threads.reduce((max, t) => Math.max(max, t.sequenceNumber), 0) + 1,
    threadState: 1,
    createdAt: now(),
  };
  state.threads.push(thread);
  return { notice: 'Thread created successfully.', thread };
}

const threadOf = (state: CollabState, uid: unknown) => state.threads.find((t) => t._id === uid);

export function createComment(state: CollabState, data: Rec) {
  const payload = (data.commentPayload ?? {}) as Rec;
  if (!threadOf(state, data.threadUid) || !str(payload.message)) return {};
  const comment: Comment = {
    _id: newId(),
    threadUid: str(data.threadUid),
    message: str(payload.message),
    author: str(payload.author) || CURRENT_USER.email,
    toUsers: strings(payload.toUsers),
    images: strings(payload.images),
    createdAt: now(),
    createdBy: str(payload.createdBy) || CURRENT_USER.uid,
  };
  state.comments.push(comment);
  return { notice: 'Comment added successfully.', comment };
}

export function editComment(state: CollabState, data: Rec) {
  const payload = (data.payload ?? {}) as Rec;
  const comment = state.comments.find((c) => c._id === data.commentUid && c.threadUid === data.threadUid);
  if (!comment || !str(payload.message)) return {};
  Object.assign(comment, { message: str(payload.message), toUsers: strings(payload.toUsers), updatedAt: now() });
  return { notice: 'Comment updated successfully.', comment };
}

export function deleteComment(state: CollabState, data: Rec) {
  const before = state.comments.length;
  state.comments = state.comments.filter((c) => !(c._id === data.commentUid && c.threadUid === data.threadUid));
  return state.comments.length < before ? { notice: 'Comment deleted successfully.' } : {};
}

export function resolveThread(state: CollabState, data: Rec) {
  const thread = threadOf(state, data.threadUid);
  if (!thread) return {};
  thread.threadState = Number(((data.payload ?? {}) as Rec).threadState) || 2;
  thread.updatedAt = now();
  return { notice: 'Thread resolved successfully.', thread };
}

export function fetchComments(state: CollabState, data: Rec) {
  const all = state.comments.filter((c) => c.threadUid === data.threadUid);
  const offset = Math.max(0, Number(data.offset) || 0);
  const limit = Math.max(1, Number(data.limit) || 10);
  return { comments: all.slice(offset, offset + limit), count: all.length };
}

export function deleteThread(state: CollabState, data: Rec) {
  if (!threadOf(state, data.threadUid)) return {};
  state.threads = state.threads.filter((t) => t._id !== data.threadUid);
  state.comments = state.comments.filter((c) => c.threadUid !== data.threadUid);
  return { notice: 'Thread deleted successfully.' };
}

export function missingThreads(state: CollabState, data: Rec) {
  for (const uid of strings(data.threadUids)) {
    const thread = threadOf(state, uid);
    if (thread) thread.isElementPresent = false;
  }
  return undefined;
}

/** The `collab-*` requests and their handlers; `changes` says whether the state must be saved. */
export const COLLAB_HANDLERS: Record<string, { run: (state: CollabState, data: Rec) => unknown; changes: boolean }> = {
  'collab-create-thread': { run: createThread, changes: true },
  'collab-create-comment': { run: createComment, changes: true },
  'collab-edit-comment': { run: editComment, changes: true },
  'collab-delete-comment': { run: deleteComment, changes: true },
  'collab-resolve-thread': { run: resolveThread, changes: true },
  'collab-fetch-comments': { run: fetchComments, changes: false },
  'collab-delete-thread': { run: deleteThread, changes: true },
  'collab-missing-threads': { run: missingThreads, changes: true },
};
