import { isRecord } from '../../common/is-record.ts';
import type { Config } from '../config/types.ts';
import { logger } from '../logger.ts';
import { commentIconHandlers } from './comment-icons.ts';
import { COLLAB_ERRORS, type CollabContext, isThread } from './context.ts';
import { applyPause, renderThreads } from './pins.ts';
import { closePopup, openPopup, removeThread } from './thread-popup.ts';

/** What the editor tells collaboration, by message type. */

export type Handlers = Record<string, (data: unknown) => unknown>;

/** The `collab` object of an editor message; without one the message is logged and ignored. */
function collabOf(data: unknown): Record<string, unknown> | null {
  if (isRecord(data) && isRecord(data.collab)) return data.collab;
  logger.error(COLLAB_ERRORS.dataStructure, data);
  return null;
}

const inviteOf = (c: Record<string, unknown>) =>
  isRecord(c.inviteMetadata) ? (c.inviteMetadata as Config['collab']['inviteMetadata']) : undefined;

export function editorHandlers(ctx: CollabContext): Handlers {
  const { collab } = ctx;
  return {
    'collab-enable': (data) => {
      const c = collabOf(data);
      if (!c) return undefined;
      if (c.fromShare !== true) {
        collab.enable = true;
        collab.inviteMetadata = inviteOf(c) ?? collab.inviteMetadata;
      }
      if (typeof c.isFeedbackMode === 'boolean') collab.isFeedbackMode = c.isFeedbackMode;
      collab.pauseFeedback = c.pauseFeedback === true;
      applyPause(ctx);
      return undefined;
    },
    'collab-disable': (data) => {
      const c = collabOf(data);
      if (!c) return undefined;
      closePopup(ctx);
      // From the share view (or a pause) only pause changes; otherwise collaboration stops.
      if (c.fromShare === true || c.pauseFeedback === true) collab.pauseFeedback = true;
      else {
        collab.enable = false;
        collab.isFeedbackMode = false;
      }
      applyPause(ctx);
      return undefined;
    },
    'collab-data-update': (data) => {
      const c = collabOf(data);
      if (!c) return undefined;
      collab.inviteMetadata = inviteOf(c) ?? collab.inviteMetadata;
      if (Array.isArray(c.payload)) {
        collab.payload = c.payload;
        renderThreads(ctx, c.payload.filter(isThread));
      }
      return undefined;
    },
    'collab-threads-remove': (data) => {
      const uids = isRecord(data) && Array.isArray(data.threadUids) ? data.threadUids : [];
      for (const uid of uids) if (typeof uid === 'string') removeThread(ctx, uid);
      return undefined;
    },
    'collab-thread-reopen': (data) => {
      const thread = isRecord(data) ? data.thread : undefined;
      if (isThread(thread)) renderThreads(ctx, [{ ...thread, threadState: 1 }]);
      return undefined;
    },
    'collab-thread-highlight': (data) => {
      const uid = isRecord(data) ? data.threadUid : undefined;
      const entry = typeof uid === 'string' ? ctx.threads.get(uid) : undefined;
      if (entry) {
        entry.pin.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
        openPopup(ctx, entry.thread, entry.pin);
      }
      return undefined;
    },
    ...commentIconHandlers(ctx.win, ctx.channel, ctx.root),
  };
}
