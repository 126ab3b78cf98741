import { MENTION_LIST_PX } from '../timing.ts';
import { type Html, html, when } from '../view/html.ts';
import type { Surface } from '../view/render.ts';
import type { CollabContext, Comment, Thread } from './context.ts';
import { COLLAB_ERRORS, logError, me, must, userMap, users } from './context.ts';
import {
  displayName,
  filterUsers,
  fromStored,
  initials,
  MAX_LENGTH,
  type Mention,
  mentionQuery,
  parseRelative,
  toStored,
  truncateName,
  type User,
  validate,
} from './text.ts';

/**
 * The composer under a thread: a textarea with @-mentions (arrows move, Enter picks, Escape
 * closes; the list flips above the input when less than 160 px is free below), a character count
 * and the first rule broken (500 characters, 20 mentions), and Post / Update. Posting to a new
 * thread creates the thread first.
 */

/** The popup's comments as the list shows them; the composer adds and replaces through it. */
export interface ThreadView {
  thread: Thread;
  pin: HTMLButtonElement;
  comments: Comment[];
  count: number;
  /** Draws the popup again from its state (the composer's changes). */
  draw(): void;
  /** Draws it and places it again: the list changed its height. */
  refresh(): void;
  /** Places the popup again once typing pauses. */
  placeSoon(): void;
  /** Closes the popup (Cancel with nothing being edited). */
  close(): void;
}

export interface Composer {
  /** The composer's markup for the popup's template, its handlers registered with `on`. */
  view(on: Surface['on']): Html;
  /** Places the open mention list against the input, below or above it (after a render). */
  placeMentions(): void;
  /** Puts a comment in the composer for editing. */
  edit(comment: Comment): void;
  /** A deleted comment leaves the composer if it was being edited. */
  forget(comment: Comment): void;
  focus(): void;
}

/** A new thread's element and point, read back from its pin: without them, no thread. */
function newThreadPayload(thread: Thread, pin: HTMLElement) {
  const elementXPath = pin.getAttribute('field-path');
  if (!elementXPath) throw new Error(COLLAB_ERRORS.fieldAttributes);
  const position = parseRelative(pin.getAttribute('relative'));
  if (!position) throw new Error(COLLAB_ERRORS.relative);
  const { author, createdBy, pageRoute, inviteUid } = thread;
  return { elementXPath, position, author, createdBy, pageRoute, inviteUid };
}

export function startComposer(ctx: CollabContext, view: ThreadView, popup: HTMLElement, signal: AbortSignal): Composer {
  const { win, channel, parser } = ctx;
  const { thread, pin } = view;
  let editing: Comment | null = null;
  let picked: Mention[] = [];
  let options: User[] = [];
  let selected = 0;
  let query: { start: number; query: string } | null = null;
  let sending = false;

  // The popup's render keeps the textarea: what is typed lives in it, read from it.
  const textarea = () => popup.querySelector<HTMLTextAreaElement>('.collab-textarea');
  const text = () => textarea()?.value ?? '';

  function composerView(on: Surface['on']): Html {
    const value = text();
    const problem = validate(value, picked);
    const open = query !== null && options.length > 0;
    const mentions = options.map((user, i) => {
      const name = displayName(user);
      return html`<li role="option" aria-selected="${String(i === selected)}" title="${name}" ${on(
        'mousedown',
        (event) => {
          // Keep the focus in the textarea.
          event.preventDefault();
          pick(user);
        },
      )}><span class="collab-avatar">${initials(name)}</span><span>${truncateName(name)}</span></li>`;
    });
    return html`<textarea class="collab-textarea${problem ? ' collab-textarea--error' : ''}" placeholder="Type @ to mention" rows="${value ? 3 : 1}" aria-label="Comment"></textarea><ul class="collab-mentions" role="listbox" ${when(!open, 'hidden')}>${open && mentions}</ul><div class="collab-form__meta"><span class="collab-error" role="alert">${problem}</span><span class="collab-counter">${value.length}/${MAX_LENGTH}</span></div><div class="collab-form__buttons"><button type="button" class="collab-button" ${on('click', cancel)}>Cancel</button><button type="button" class="collab-button collab-button--primary" ${on('click', () => void submit())} ${when(sending || !value.trim() || Boolean(problem), 'disabled')}>${editing ? 'Update' : 'Post'}</button></div>`;
  }

  function placeMentions() {
    const input = textarea();
    const list = popup.querySelector<HTMLElement>('.collab-mentions');
    const form = list?.parentElement;
    if (!input || !list || !form || list.hidden) return;
    // Flip above the input when less than the list's height is free below.
    const above = win.innerHeight - input.getBoundingClientRect().bottom < MENTION_LIST_PX;
    list.style.top = above ? '' : `${input.offsetTop + input.offsetHeight}px`;
    list.style.bottom = above ? `${form.clientHeight - input.offsetTop}px` : '';
  }

  /** Sets what the textarea holds, the caret at `caret` (its end when not given). */
  function setText(value: string, caret = value.length) {
    const input = textarea();
    if (!input) return;
    input.value = value;
    input.setSelectionRange(caret, caret);
  }

  function pick(user: User) {
    const input = textarea();
    if (!query || !input) return;
    const display = displayName(user);
    const caret = input.selectionStart ?? input.value.length;
    const value = input.value;
    setText(`${value.slice(0, query.start)}@${display} ${value.slice(caret)}`, query.start + display.length + 2);
    if (!picked.some((m) => m.uid === user.uid)) picked.push({ uid: user.uid, display });
    query = null;
    view.draw();
    input.focus();
  }

  popup.addEventListener(
    'input',
    (event) => {
      const input = textarea();
      if (event.target !== input || !input) return;
      query = mentionQuery(input.value, input.selectionStart ?? input.value.length);
      options = query ? filterUsers(users(ctx), query.query) : [];
      selected = 0;
      view.draw();
      view.placeSoon();
    },
    { signal },
  );
  popup.addEventListener(
    'keydown',
    (event) => {
      if (event.target !== textarea() || query === null || options.length === 0) return;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        selected = (selected + step + options.length) % options.length;
        view.draw();
      } else if (event.key === 'Enter') {
        event.preventDefault();
        const user = options[selected];
        if (user) pick(user);
      } else if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        query = null;
        view.draw();
      }
    },
    { signal },
  );
  function resetForm() {
    editing = null;
    picked = [];
    setText('');
    query = null;
    view.draw();
  }

  async function save(payload: { message: string; toUsers: string[] }, edited: Comment | null): Promise<void> {
    const full = { ...payload, images: [], createdBy: me(ctx).uid, author: me(ctx).email };
    if (edited) {
      const reply = await must<{ comment?: Comment }>(
        channel.send('collab-edit-comment', { threadUid: thread._id, commentUid: edited._id, payload: full }),
        COLLAB_ERRORS.updateComment,
      );
      const updated = reply.comment ?? { ...edited, ...payload };
      view.comments = view.comments.map((c) => (c._id === edited._id ? updated : c));
      return;
    }
    if (thread._id === 'new') {
      const reply = await must<{ thread?: Thread }>(
        channel.send('collab-create-thread', newThreadPayload(thread, pin)),
        COLLAB_ERRORS.createThread,
      );
      const created = reply.thread;
      if (!created || typeof created._id !== 'string') throw new Error(COLLAB_ERRORS.createThread);
      ctx.threads.delete('new');
      thread._id = created._id;
      ctx.threads.set(thread._id, { thread, pin });
      pin.setAttribute('threaduid', thread._id);
    }
    const reply = await must<{ comment?: Comment }>(
      channel.send('collab-create-comment', { threadUid: thread._id, commentPayload: full }),
      COLLAB_ERRORS.createComment,
    );
    if (!reply.comment) throw new Error(COLLAB_ERRORS.createComment);
    view.comments = [reply.comment, ...view.comments];
    view.count++;
  }

  async function submit() {
    const value = text();
    if (!value.trim() || validate(value, picked)) return;
    const stored = toStored(value, picked, parser);
    if (!stored.message) return;
    sending = true;
    view.draw();
    try {
      await save(stored, editing);
      sending = false;
      resetForm();
      view.refresh();
    } catch (e) {
      // Comment submit errors are only logged.
      logError(e);
      sending = false;
      view.draw();
    }
  }
  function cancel() {
    if (editing) resetForm();
    else view.close();
  }

  return {
    view: composerView,
    placeMentions,
    edit(comment) {
      editing = comment;
      const shown = fromStored(comment.message, userMap(ctx));
      setText(shown.text);
      picked = shown.mentions;
      view.draw();
      textarea()?.focus();
    },
    forget(comment) {
      if (editing?._id === comment._id) resetForm();
    },
    focus: () => textarea()?.focus(),
  };
}
