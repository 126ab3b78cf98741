import { isRecord } from '../../common/is-record.ts';
import type { Config } from '../config/types.ts';
import type { PageWindow } from '../dom.ts';
import { logger } from '../logger.ts';
import type { Exchange } from '../protocol.ts';
import type { Channel } from '../transport/channel.ts';
import { toUser, type User } from './text.ts';

/**
 * What collaboration's features share: the page, the editor's channel, the shadow root the pins
 * and the popup live in, the pinned threads, the open popup, and the signal whose abort ends
 * every listener, observer and timer. Also the data shapes of threads and comments.
 */

export interface Thread {
  _id: string;
  elementXPath: string;
  position: { x: number; y: number };
  author: string;
  createdBy: string;
  pageRoute: string;
  inviteUid: string;
  threadState?: number;
  sequenceNumber?: number;
}

export interface Comment {
  _id: string;
  threadUid?: string;
  message: string;
  toUsers: string[];
  images: unknown[];
  createdBy: string;
  author: string;
  createdAt: string;
  updatedAt?: string;
}

/** A comment as the composer sends it. */
interface CommentPayload {
  message: string;
  toUsers: string[];
  images: never[];
  createdBy: string;
  author: string;
}

/**
 * Layer → editor requests of collaboration, with what each carries and what its answer reads as
 * (`must` checks the answer is a non-empty object; its fields are checked where they are used).
 */
export interface CollabSent {
  'collab-create-thread': Exchange<
    Pick<Thread, 'elementXPath' | 'position' | 'author' | 'createdBy' | 'pageRoute' | 'inviteUid'>,
    { thread?: Thread }
  >;
  'collab-create-comment': Exchange<{ threadUid: string; commentPayload: CommentPayload }, { comment?: Comment }>;
  'collab-edit-comment': Exchange<
    { threadUid: string; commentUid: string; payload: CommentPayload },
    { comment?: Comment }
  >;
  'collab-delete-comment': Exchange<{ threadUid: string; commentUid: string }, unknown>;
  'collab-resolve-thread': Exchange<{ threadUid: string; payload: { threadState: typeof RESOLVED } }, unknown>;
  'collab-fetch-comments': Exchange<{ threadUid: string; offset: number; limit: number }, unknown>;
  'collab-delete-thread': Exchange<{ threadUid: string }, unknown>;
  'collab-missing-threads': Exchange<{ payload: { isElementPresent: false }; threadUids: string[] }, unknown>;
}

export const COLLAB_ERRORS = {
  createThread: 'Failed to create thread',
  createComment: 'Failed to create comment',
  updateComment: 'Failed to update comment',
  deleteComment: 'Failed to delete comment',
  resolveThread: 'Failed to resolve thread',
  deleteThread: 'Failed to delete thread',
  fieldAttributes: 'Invalid field attributes',
  relative: 'Invalid relative attribute',
  dataStructure: 'Invalid collab data structure',
} as const;

/** A thread is resolved in this state. */
export const RESOLVED = 2;

export const isThread = (v: unknown): v is Thread =>
  isRecord(v) && typeof v._id === 'string' && typeof v.elementXPath === 'string' && isRecord(v.position);

/** The reply's payload, or an error with the given text when it is empty. */
export async function must<T>(request: Promise<unknown>, error: string): Promise<T> {
  const reply = await request;
  if (!isRecord(reply) || Object.keys(reply).length === 0) throw new Error(error);
  return reply as T;
}

export const logError = (error: unknown) => logger.error(error);

/** The open thread popup: its thread, its node, and the pin it belongs to. */
export interface ThreadPopup {
  thread: Thread;
  node: HTMLElement;
  pin: HTMLButtonElement;
  /** Places the popup again beside its pin. */
  place(): void;
  /** Aborted when the popup closes. */
  signal: AbortSignal;
  close(): void;
}

export interface CollabContext {
  win: PageWindow;
  doc: Document;
  /** The live collaboration settings, changed by the editor's messages. */
  collab: Config['collab'];
  /** The visual-builder channel, limited to collaboration's requests. */
  channel: Channel<CollabSent>;
  /** Aborted by `destroy`. */
  signal: AbortSignal;
  host: HTMLElement;
  root: ShadowRoot;
  pins: HTMLElement;
  parser: DOMParser;
  threads: Map<string, { thread: Thread; pin: HTMLButtonElement }>;
  popup: ThreadPopup | null;
  /** Time between render retries of a pin whose element is missing (1000 ms); shorter in unit tests. */
  retryMs: number;
}

export const users = (ctx: CollabContext): User[] =>
  (ctx.collab.inviteMetadata.users as unknown[]).map(toUser).filter((u): u is User => u !== null);
export const userMap = (ctx: CollabContext) => new Map(users(ctx).map((u) => [u.uid, u]));
export const me = (ctx: CollabContext) => ctx.collab.inviteMetadata.currentUser;
