import { debounce } from '../debounce.ts';
import { button, el } from '../el.ts';
import { isRecord } from '../is-record.ts';
import { INPUT_REPOSITION_MS, MORE_WITHIN_PX } from '../timing.ts';
import { startComposer } from './composer.ts';
import {
  COLLAB_ERRORS,
  COLLAB_SENT,
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
import { removeThread } from './pins.ts';
import { popupPosition } from './placement.ts';
import { displayName, formatTime, headerText, initials, PAGE_SIZE } from './text.ts';

/**
 * The thread popup beside a pin: header with the count and Resolve, the comment list (paged,
 * 10 at a time, more on scrolling to its end), the composer, and a footer. Only a comment's author
 * may edit or delete it; deleting the last comment deletes the thread.
 */

/** The popup's comments as the list shows them; the composer adds and replaces through it. */
export interface ThreadView {
  thread: Thread;
  pin: HTMLButtonElement;
  comments: Comment[];
  count: number;
  /** Draws the list and the header again. */
  refresh(): void;
  /** Places the popup again once typing pauses. */
  placeSoon(): void;
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
  const place = () => {
    const { left, top } = popupPosition(
      pin.getBoundingClientRect(),
      // Unmeasured (0 × 0) until laid out: then the default size.
      { width: node.offsetWidth, height: node.offsetHeight },
      { width: ctx.win.innerWidth, height: ctx.win.innerHeight },
    );
    node.style.left = `${left}px`;
    node.style.top = `${top}px`;
  };
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

function renderMessage(ctx: CollabContext, target: HTMLElement, message: string): void {
  const map = userMap(ctx);
  for (const part of message.split(/(\{\{[^{}]+\}\})/)) {
    const uid = /^\{\{([^{}]+)\}\}$/.exec(part)?.[1];
    const user = uid ? map.get(uid) : undefined;
    if (user) el(ctx.doc, 'span', 'collab-mention', target).textContent = `@${displayName(user)}`;
    else if (part) target.append(ctx.doc.createTextNode(part));
  }
}

function commentCard(ctx: CollabContext, comment: Comment, list: HTMLElement, actions: CommentActions): void {
  const { doc } = ctx;
  const card = el(doc, 'div', 'collab-comment', list);
  card.setAttribute('data-testid', 'collab-comment');
  const head = el(doc, 'div', 'collab-comment__head', card);
  const author = userMap(ctx).get(comment.createdBy);
  const name = author ? displayName(author) : comment.author;
  const avatar = el(doc, 'span', 'collab-avatar', head);
  avatar.textContent = initials(name);
  avatar.title = name;
  const who = el(doc, 'div', 'collab-comment__who', head);
  el(doc, 'strong', '', who).textContent = name;
  el(doc, 'span', 'collab-comment__time', who).textContent = formatTime(comment.updatedAt ?? comment.createdAt);
  renderMessage(ctx, el(doc, 'p', 'collab-comment__message', card), comment.message);
  // Only a comment's author may edit or delete it.
  if (comment.createdBy !== me(ctx).uid) return;
  const row = el(doc, 'div', 'collab-comment__actions', card);
  button(doc, 'collab-link', 'Edit', row).addEventListener('click', () => actions.edit(comment));
  button(doc, 'collab-link', 'Delete', row).addEventListener('click', () => void actions.remove(comment));
}

interface CommentActions {
  edit(comment: Comment): void;
  remove(comment: Comment): Promise<void>;
}

function buildPopup(ctx: CollabContext, popup: ThreadPopup): void {
  const { doc, channel } = ctx;
  const { thread, node, pin } = popup;
  let loading = false;

  const header = el(doc, 'div', 'collab-thread__header', node);
  const title = el(doc, 'span', 'collab-thread__title', header);
  const resolve = button(doc, 'collab-button', 'Resolve', header);
  const list = el(doc, 'div', 'collab-thread__list', node);
  list.setAttribute('data-testid', 'collab-thread-list');
  const form = el(doc, 'div', 'collab-thread__form', node);
  el(doc, 'div', 'collab-thread__footer', node).textContent = 'Comments are visible to everyone invited to this page.';

  const placeSoon = debounce(() => {
    if (ctx.popup === popup) popup.place();
  }, INPUT_REPOSITION_MS);
  popup.signal.addEventListener('abort', () => placeSoon.cancel(), { once: true });

  const view: ThreadView = { thread, pin, comments: [], count: 0, refresh, placeSoon };
  const composer = startComposer(ctx, view, form, popup.signal);
  const actions: CommentActions = { edit: composer.edit, remove: deleteComment };

  function renderHeader() {
    title.textContent = headerText(view.count);
    // Any participant can resolve a thread that is not new.
    resolve.hidden = thread._id === 'new';
  }

  function renderList() {
    list.replaceChildren();
    for (const comment of view.comments) commentCard(ctx, comment, list, actions);
    if (loading) for (let i = 0; i < 3; i++) el(doc, 'div', 'collab-skeleton', list).setAttribute('aria-busy', 'true');
    // The list changes the popup's height: place it again with its new size.
    if (ctx.popup === popup) popup.place();
  }

  function refresh() {
    renderList();
    renderHeader();
  }

  async function loadMore() {
    const { comments, count } = view;
    if (loading || thread._id === 'new' || (comments.length >= count && comments.length > 0)) return;
    loading = true;
    renderList();
    try {
      const reply = await channel.send(COLLAB_SENT.fetchComments, {
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
  list.addEventListener('scroll', () => {
    if (list.scrollHeight - list.scrollTop - list.clientHeight <= MORE_WITHIN_PX) void loadMore();
  });

  async function deleteComment(comment: Comment) {
    try {
      await must(
        channel.send(COLLAB_SENT.deleteComment, { threadUid: thread._id, commentUid: comment._id }),
        COLLAB_ERRORS.deleteComment,
      );
      view.comments = view.comments.filter((c) => c._id !== comment._id);
      view.count = Math.max(0, view.count - 1);
      composer.forget(comment);
      refresh();
      // Deleting the last comment deletes the thread.
      if (view.count === 0) {
        await must(channel.send(COLLAB_SENT.deleteThread, { threadUid: thread._id }), COLLAB_ERRORS.deleteThread);
        removeThread(ctx, thread._id);
      }
    } catch (e) {
      logError(e);
    }
  }

  resolve.addEventListener('click', async () => {
    try {
      await must(
        channel.send(COLLAB_SENT.resolveThread, { threadUid: thread._id, payload: { threadState: RESOLVED } }),
        COLLAB_ERRORS.resolveThread,
      );
      thread.threadState = RESOLVED;
      removeThread(ctx, thread._id);
    } catch (e) {
      logError(e);
    }
  });

  renderHeader();
  void loadMore();
  composer.focus();
}
