import { button, el } from '../el.ts';
import { MENTION_LIST_PX } from '../timing.ts';
import {
  COLLAB_ERRORS,
  COLLAB_SENT,
  type CollabContext,
  type Comment,
  logError,
  me,
  must,
  type Thread,
  userMap,
  users,
} from './context.ts';
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
import { closePopup, type ThreadView } from './thread-popup.ts';

/**
 * The composer under a thread: a textarea with @-mentions (arrows move, Enter picks, Escape
 * closes; the list flips above the input when less than 160 px is free below), a character count
 * and the first rule broken (500 characters, 20 mentions), and Post / Update. Posting to a new
 * thread creates the thread first.
 */

export interface Composer {
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

export function startComposer(ctx: CollabContext, view: ThreadView, form: HTMLElement, signal: AbortSignal): Composer {
  const { doc, win, channel, parser } = ctx;
  const { thread, pin } = view;
  let editing: Comment | null = null;
  let picked: Mention[] = [];
  let options: User[] = [];
  let selected = 0;
  let query: { start: number; query: string } | null = null;

  const textarea = el(doc, 'textarea', 'collab-textarea', form);
  textarea.placeholder = 'Type @ to mention';
  textarea.rows = 1;
  textarea.setAttribute('aria-label', 'Comment');
  const mentionList = el(doc, 'ul', 'collab-mentions', form);
  mentionList.setAttribute('role', 'listbox');
  mentionList.hidden = true;
  const meta = el(doc, 'div', 'collab-form__meta', form);
  const error = el(doc, 'span', 'collab-error', meta);
  error.setAttribute('role', 'alert');
  const counter = el(doc, 'span', 'collab-counter', meta);
  const buttons = el(doc, 'div', 'collab-form__buttons', form);
  const cancel = button(doc, 'collab-button', 'Cancel', buttons);
  const post = button(doc, 'collab-button collab-button--primary', '', buttons);

  function renderForm() {
    const text = textarea.value;
    const problem = validate(text, picked);
    error.textContent = problem;
    textarea.classList.toggle('collab-textarea--error', Boolean(problem));
    counter.textContent = `${text.length}/${MAX_LENGTH}`;
    textarea.rows = text ? 3 : 1;
    post.textContent = editing ? 'Update' : 'Post';
    post.disabled = !text.trim() || Boolean(problem);
  }

  function renderMentions() {
    mentionList.replaceChildren();
    mentionList.hidden = !query || options.length === 0;
    if (mentionList.hidden) return;
    options.forEach((user, i) => {
      const item = el(doc, 'li', '', mentionList);
      item.setAttribute('role', 'option');
      item.setAttribute('aria-selected', String(i === selected));
      const name = displayName(user);
      el(doc, 'span', 'collab-avatar', item).textContent = initials(name);
      el(doc, 'span', '', item).textContent = truncateName(name);
      item.title = name;
      item.addEventListener('mousedown', (event) => {
        event.preventDefault();
        pick(user);
      });
    });
    // Flip above the input when less than the list's height is free below.
    const rect = textarea.getBoundingClientRect();
    const above = win.innerHeight - rect.bottom < MENTION_LIST_PX;
    mentionList.style.top = above ? '' : `${textarea.offsetTop + textarea.offsetHeight}px`;
    mentionList.style.bottom = above ? `${form.clientHeight - textarea.offsetTop}px` : '';
  }

  function pick(user: User) {
    if (!query) return;
    const display = displayName(user);
    const caret = textarea.selectionStart ?? textarea.value.length;
    const text = textarea.value;
    textarea.value = `${text.slice(0, query.start)}@${display} ${text.slice(caret)}`;
    const at = query.start + display.length + 2;
    textarea.setSelectionRange(at, at);
    if (!picked.some((m) => m.uid === user.uid)) picked.push({ uid: user.uid, display });
    query = null;
    renderMentions();
    renderForm();
    textarea.focus();
  }

  textarea.addEventListener(
    'input',
    () => {
      query = mentionQuery(textarea.value, textarea.selectionStart ?? textarea.value.length);
      options = query ? filterUsers(users(ctx), query.query) : [];
      selected = 0;
      // The form first: the row count moves the input the list is placed against.
      renderForm();
      renderMentions();
      view.placeSoon();
    },
    { signal },
  );
  textarea.addEventListener(
    'keydown',
    (event) => {
      if (mentionList.hidden) return;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        selected = (selected + step + options.length) % options.length;
        renderMentions();
      } else if (event.key === 'Enter') {
        event.preventDefault();
        const user = options[selected];
        if (user) pick(user);
      } else if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        query = null;
        renderMentions();
      }
    },
    { signal },
  );

  function resetForm() {
    editing = null;
    picked = [];
    textarea.value = '';
    query = null;
    renderMentions();
    renderForm();
  }

  async function save(payload: { message: string; toUsers: string[] }, edited: Comment | null): Promise<void> {
    const full = { ...payload, images: [], createdBy: me(ctx).uid, author: me(ctx).email };
    if (edited) {
      const reply = await must<{ comment?: Comment }>(
        channel.send(COLLAB_SENT.editComment, { threadUid: thread._id, commentUid: edited._id, payload: full }),
        COLLAB_ERRORS.updateComment,
      );
      const updated = reply.comment ?? { ...edited, ...payload };
      view.comments = view.comments.map((c) => (c._id === edited._id ? updated : c));
      return;
    }
    if (thread._id === 'new') {
      const reply = await must<{ thread?: Thread }>(
        channel.send(COLLAB_SENT.createThread, newThreadPayload(thread, pin)),
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
      channel.send(COLLAB_SENT.createComment, { threadUid: thread._id, commentPayload: full }),
      COLLAB_ERRORS.createComment,
    );
    if (!reply.comment) throw new Error(COLLAB_ERRORS.createComment);
    view.comments = [reply.comment, ...view.comments];
    view.count++;
  }

  async function submit() {
    const text = textarea.value;
    if (!text.trim() || validate(text, picked)) return;
    const stored = toStored(text, picked, parser);
    if (!stored.message) return;
    post.disabled = true;
    try {
      await save(stored, editing);
      resetForm();
      view.refresh();
    } catch (e) {
      // Comment submit errors are only logged.
      logError(e);
      renderForm();
    }
  }
  post.addEventListener('click', () => void submit(), { signal });
  cancel.addEventListener(
    'click',
    () => {
      if (editing) resetForm();
      else closePopup(ctx);
    },
    { signal },
  );

  renderForm();
  return {
    edit(comment) {
      editing = comment;
      const shown = fromStored(comment.message, userMap(ctx));
      textarea.value = shown.text;
      picked = shown.mentions;
      renderForm();
      textarea.focus();
    },
    forget(comment) {
      if (editing?._id === comment._id) resetForm();
    },
    focus: () => textarea.focus(),
  };
}
