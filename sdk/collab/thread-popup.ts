import { isRecord } from '../../common/is-record.ts';
import { debounce } from '../debounce.ts';
import { el } from '../el.ts';
import { INPUT_REPOSITION_MS, MORE_WITHIN_PX, POPUP_DEFAULT_SIZE, POPUP_GAP_PX, POPUP_MARGIN_PX } from '../timing.ts';
import { float } from '../view/float.ts';
import { html, when } from '../view/html.ts';
import { type Surface, surface } from '../view/render.ts';
import { type Composer, startComposer, type ThreadView } from './composer.ts';
import {
  COLLAB_ERRORS,
  type CollabContext,
  type Comment,
  logError,
  me,
  must,
  RESOLVED,
  type Thread,
  type ThreadPopup,
  userMap,
} from './context.ts';
import { displayName, formatTime, headerText, initials, PAGE_SIZE, type User } from './text.ts';

/**
 * The thread popup beside a pin: header with the count and Resolve, the comment list (paged,
 * 10 at a time, more on scrolling to its end), the composer, and a footer. Only a comment's author
 * may edit or delete it; deleting the last comment deletes the thread. One template of the popup's
 * state, rendered in place on every change.
 */

/** Takes a thread's pin off the page, and its popup if open. */
export function removeThread(ctx: CollabContext, uid: string): void {
  ctx.threads.get(uid)?.pin.remove();
  ctx.threads.delete(uid);
  if (ctx.popup?.thread._id === uid) closePopup(ctx);
}

export function closePopup(ctx: CollabContext): void {
  const popup = ctx.popup;
  if (!popup) return;
  popup.close();
  for (const { pin } of ctx.threads.values()) pin.classList.remove('collab-pin--active');
  // A never-saved pin goes with its popup; feedback mode comes back.
  if (popup.thread._id === 'new') removeThread(ctx, 'new');
  ctx.collab.isFeedbackMode = true;
}

export function openPopup(ctx: CollabContext, thread: Thread, pin: HTMLButtonElement): void {
  const previous = ctx.popup;
  if (previous) {
    previous.close();
    if (previous.thread._id === 'new' && thread._id !== 'new') removeThread(ctx, 'new');
  }
  ctx.collab.isFeedbackMode = false;
  pin.classList.add('collab-pin--active');
  const node = el(ctx.doc, 'div', 'collab-thread', ctx.root);
  node.setAttribute('role', 'dialog');
  node.setAttribute('data-testid', 'collab-thread');
  const closed = new AbortController();
  // Beside the pin with an 8 px gap, on the right unless that leaves the viewport, inside its safe margins.
  const place = () =>
    void float(pin, node, 'right-start', {
      gap: POPUP_GAP_PX,
      margin: POPUP_MARGIN_PX,
      fallbacks: ['left-start'],
      size: POPUP_DEFAULT_SIZE,
    });
  const popup: ThreadPopup = {
    thread,
    node,
    pin,
    place,
    signal: AbortSignal.any([ctx.signal, closed.signal]),
    close() {
      closed.abort();
      node.remove();
      if (ctx.popup === popup) ctx.popup = null;
    },
  };
  ctx.popup = popup;
  buildPopup(ctx, popup);
  place();
}

const SKELETON = html`<div class="collab-skeleton" aria-busy="true"></div>`;

/** A stored message with its `{{uid}}` placeholders shown as the users' names. */
function messageView(users: Map<string, User>, message: string) {
  return message.split(/(\{\{[^{}]+\}\})/).map((part) => {
    const uid = /^\{\{([^{}]+)\}\}$/.exec(part)?.[1];
    const user = uid ? users.get(uid) : undefined;
    return user ? html`<span class="collab-mention">@${displayName(user)}</span>` : part;
  });
}

interface CommentActions {
  edit(comment: Comment): void;
  remove(comment: Comment): Promise<void>;
}

function commentView(
  ctx: CollabContext,
  users: Map<string, User>,
  comment: Comment,
  on: Surface['on'],
  actions: CommentActions,
) {
  const author = users.get(comment.createdBy);
  const name = author ? displayName(author) : comment.author;
  // Only a comment's author may edit or delete it.
  const own =
    comment.createdBy === me(ctx).uid &&
    html`<div class="collab-comment__actions"><button type="button" class="collab-link" ${on('click', () => actions.edit(comment))}>Edit</button><button type="button" class="collab-link" ${on('click', () => void actions.remove(comment))}>Delete</button></div>`;
  return html`<div class="collab-comment" data-testid="collab-comment" id="collab-comment-${comment._id}"><div class="collab-comment__head"><span class="collab-avatar" title="${name}">${initials(name)}</span><div class="collab-comment__who"><strong>${name}</strong><span class="collab-comment__time">${formatTime(comment.updatedAt ?? comment.createdAt)}</span></div></div><p class="collab-comment__message">${messageView(users, comment.message)}</p>${own}</div>`;
}

function buildPopup(ctx: CollabContext, popup: ThreadPopup): void {
  const { channel } = ctx;
  const { thread, node, pin, signal } = popup;
  let loading = false;
  let composer: Composer | null = null;

  const placeSoon = debounce(() => {
    if (ctx.popup === popup) popup.place();
  }, INPUT_REPOSITION_MS);
  signal.addEventListener('abort', () => placeSoon.cancel(), { once: true });

  const drawn = surface(node, signal);
  const actions: CommentActions = { edit: (comment) => composer?.edit(comment), remove: deleteComment };

  function draw() {
    const users = userMap(ctx);
    const { on } = drawn;
    drawn.render(
      // Any participant can resolve a thread that is not new.
      () =>
        html`<div class="collab-thread__header"><span class="collab-thread__title">${headerText(view.count)}</span><button type="button" class="collab-button" ${on('click', () => void resolve())} ${when(thread._id === 'new', 'hidden')}>Resolve</button></div><div class="collab-thread__list" data-testid="collab-thread-list">${view.comments.map((c) => commentView(ctx, users, c, on, actions))}${loading && [SKELETON, SKELETON, SKELETON]}</div><div class="collab-thread__form">${composer?.view(on)}</div><div class="collab-thread__footer">Comments are visible to everyone invited to this page.</div>`,
    );
    composer?.placeMentions();
  }

  function refresh() {
    draw();
    // The list changes the popup's height: place it again with its new size.
    if (ctx.popup === popup) popup.place();
  }

  const view: ThreadView = {
    thread,
    pin,
    comments: [],
    count: 0,
    draw,
    refresh,
    placeSoon,
    close: () => closePopup(ctx),
  };
  composer = startComposer(ctx, view, node, signal);

  async function loadMore() {
    const { comments, count } = view;
    if (loading || thread._id === 'new' || (comments.length >= count && comments.length > 0)) return;
    loading = true;
    refresh();
    try {
      const reply = await channel.send('collab-fetch-comments', {
        threadUid: thread._id,
        offset: comments.length,
        limit: PAGE_SIZE,
      });
      if (isRecord(reply) && Array.isArray(reply.comments)) {
        view.comments = view.comments.concat(reply.comments as Comment[]);
        view.count = typeof reply.count === 'number' ? reply.count : view.comments.length;
      }
    } catch (e) {
      logError(e);
    } finally {
      loading = false;
      refresh();
    }
  }

  async function deleteComment(comment: Comment) {
    try {
      await must(
        channel.send('collab-delete-comment', { threadUid: thread._id, commentUid: comment._id }),
        COLLAB_ERRORS.deleteComment,
      );
      view.comments = view.comments.filter((c) => c._id !== comment._id);
      view.count = Math.max(0, view.count - 1);
      composer?.forget(comment);
      refresh();
      // Deleting the last comment deletes the thread.
      if (view.count === 0) {
        await must(channel.send('collab-delete-thread', { threadUid: thread._id }), COLLAB_ERRORS.deleteThread);
        removeThread(ctx, thread._id);
      }
    } catch (e) {
      logError(e);
    }
  }

  async function resolve() {
    try {
      await must(
        channel.send('collab-resolve-thread', { threadUid: thread._id, payload: { threadState: RESOLVED } }),
        COLLAB_ERRORS.resolveThread,
      );
      thread.threadState = RESOLVED;
      removeThread(ctx, thread._id);
    } catch (e) {
      logError(e);
    }
  }

  refresh();
  // Scroll does not bubble: the list element itself, which every render keeps.
  node.querySelector('.collab-thread__list')?.addEventListener(
    'scroll',
    (event) => {
      const list = event.currentTarget as HTMLElement;
      if (list.scrollHeight - list.scrollTop - list.clientHeight <= MORE_WITHIN_PX) void loadMore();
    },
    { signal },
  );
  void loadMore();
  composer.focus();
}
