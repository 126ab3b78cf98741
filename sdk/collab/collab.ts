import type { Config } from '../config/types.ts';
import { debounce } from '../debounce.ts';
import { LAYER_OWNED, type PageWindow } from '../dom.ts';
import { logger } from '../logger.ts';
import type { Channel } from '../transport/channel.ts';
import { commentIconHandlers } from './comment-icons.ts';
import { popupPosition } from './placement.ts';
import { COLLAB_CSS } from './styles.ts';
import {
  displayName,
  elementAt,
  filterUsers,
  formatTime,
  fromStored,
  headerText,
  initials,
  MAX_LENGTH,
  type Mention,
  mentionQuery,
  PAGE_SIZE,
  pageRoute,
  parseRelative,
  relativeText,
  toStored,
  toUser,
  truncateName,
  type User,
  validate,
  xpathOf,
} from './text.ts';

/**
 * Collaboration (issue 12): comment threads pinned to page elements, in a lazy chunk the core
 * loads only once collaboration is enabled. Pins and the thread popup live in an open shadow root;
 * every thread and comment change is a `collab-*` request on the visual-builder channel
 * (reference b.6). `destroy` undoes every listener and node.
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

export interface CollabOptions {
  win: PageWindow;
  config: Config;
  channel: Channel;
  /** Spec 9: 5 retries 1000 ms apart; shorter in unit tests. */
  retryMs?: number;
}

export interface Collab {
  /** Runs an editor message the core received before the chunk was loaded. */
  handle(type: string, data: unknown): unknown;
  destroy(): void;
}

export const COLLAB_SENT = {
  createThread: 'collab-create-thread',
  createComment: 'collab-create-comment',
  editComment: 'collab-edit-comment',
  deleteComment: 'collab-delete-comment',
  resolveThread: 'collab-resolve-thread',
  fetchComments: 'collab-fetch-comments',
  deleteThread: 'collab-delete-thread',
  missingThreads: 'collab-missing-threads',
} as const;

export const COLLAB_ERRORS = {
  createComment: 'Failed to create comment',
  updateComment: 'Failed to update comment',
  deleteComment: 'Failed to delete comment',
  resolveThread: 'Failed to resolve thread',
  deleteThread: 'Failed to delete thread',
  fieldAttributes: 'Invalid field attributes',
  relative: 'Invalid relative attribute',
  dataStructure: 'Invalid collab data structure',
} as const;

const RETRIES = 5;
const PIN_UP = 43;
const PIN_LEFT = 9;
const MENTION_LIST_PX = 160;
const MORE_WITHIN_PX = 3;
const MUTATION_DEBOUNCE_MS = 1000;
/** Spec 9, "input reposition": the composer grows as one types; the popup follows once typing pauses. */
const INPUT_REPOSITION_MS = 200;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isThread = (v: unknown): v is Thread =>
  isRecord(v) && typeof v._id === 'string' && typeof v.elementXPath === 'string' && isRecord(v.position);

/** The `collab` object of an editor message; without one the message is logged and ignored (spec 8). */
function collabOf(data: unknown): Record<string, unknown> | null {
  if (isRecord(data) && isRecord(data.collab)) return data.collab;
  logger.error(COLLAB_ERRORS.dataStructure, data);
  return null;
}

/** The reply's payload, or an error with the spec's text when empty (spec 8). */
async function must<T>(request: Promise<unknown>, error: string): Promise<T> {
  const reply = await request;
  if (!isRecord(reply) || Object.keys(reply).length === 0) throw new Error(error);
  return reply as T;
}

export function startCollab({ win, config, channel, retryMs = 1000 }: CollabOptions): Collab {
  const doc = win.document;
  const collab = config.collab;
  const cleanups: (() => void)[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const later = (fn: () => void, ms: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };

  const el = <K extends keyof HTMLElementTagNameMap>(
    tag: K,
    className = '',
    parent?: Node,
  ): HTMLElementTagNameMap[K] => {
    const node = doc.createElement(tag);
    if (className) node.className = className;
    parent?.appendChild(node);
    return node;
  };
  const host = el('div', 'collab__container');
  host.setAttribute(LAYER_OWNED, '');
  host.setAttribute('data-studio-ui', 'true');
  host.setAttribute('data-testid', 'collab__container');
  Object.assign(host.style, { position: 'absolute', top: '0', left: '0', width: '0', height: '0' });
  const root = host.attachShadow({ mode: 'open' });
  if (typeof win.CSSStyleSheet === 'function' && 'adoptedStyleSheets' in root) {
    const sheet = new win.CSSStyleSheet();
    sheet.replaceSync(COLLAB_CSS);
    root.adoptedStyleSheets = [sheet];
  } else el('style', '', root).textContent = COLLAB_CSS;
  const pins = el('div', 'collab-pins', root);
  doc.body.appendChild(host);
  cleanups.push(() => host.remove());

  const parser = new win.DOMParser();
  const threads = new Map<string, { thread: Thread; pin: HTMLButtonElement }>();
  let popup: ThreadPopup | null = null;

  const users = (): User[] =>
    (collab.inviteMetadata.users as unknown[]).map(toUser).filter((u): u is User => u !== null);
  const userMap = () => new Map(users().map((u) => [u.uid, u]));
  const me = () => collab.inviteMetadata.currentUser;

  function applyPause() {
    pins.classList.toggle('collab-pins--paused', !collab.enable || collab.pauseFeedback);
  }

  // --- Pins ---------------------------------------------------------------------------------

  function placePin(pin: HTMLElement, target: Element, position: { x: number; y: number }) {
    const rect = target.getBoundingClientRect();
    pin.style.left = `${rect.left + win.scrollX + position.x * rect.width - PIN_LEFT}px`;
    pin.style.top = `${rect.top + win.scrollY + position.y * rect.height - PIN_UP}px`;
  }

  function addPin(thread: Thread, target: Element): HTMLButtonElement {
    const pin = el('button', 'collab-pin', pins);
    pin.type = 'button';
    pin.setAttribute('threaduid', thread._id);
    pin.setAttribute('data-testid', 'collab-pin');
    // Reference f.1: a new thread is created from these (spec 5).
    pin.setAttribute('field-path', thread.elementXPath);
    pin.setAttribute('relative', relativeText(thread.position));
    const author = displayName(userMap().get(thread.createdBy) ?? { uid: '', email: thread.author });
    pin.textContent = initials(author);
    // A native tooltip: the browser keeps it on screen (spec 2, tooltips flip to stay visible).
    pin.title = author;
    placePin(pin, target, thread.position);
    pin.addEventListener('click', (event) => {
      event.stopPropagation();
      const entry = [...threads.values()].find((t) => t.pin === pin);
      if (entry) openPopup(entry.thread, pin);
    });
    threads.set(thread._id, { thread, pin });
    return pin;
  }

  function removeThread(uid: string) {
    const entry = threads.get(uid);
    entry?.pin.remove();
    threads.delete(uid);
    if (popup && popup.thread._id === uid) closePopup();
  }

  /** Renders pins; a missing element is retried 5 times 1 s apart, then reported (spec 4). */
  function renderThreads(list: Thread[], attempt = 0) {
    const missing: Thread[] = [];
    for (const given of list) {
      // Our own copy: resolving or saving must not change the editor's objects.
      const thread = { ...given, position: { ...given.position } };
      if (thread.threadState === 2) continue;
      const target = elementAt(doc, thread.elementXPath);
      if (!target) {
        missing.push(thread);
        continue;
      }
      const known = threads.get(thread._id);
      if (known) {
        known.thread = thread;
        known.pin.hidden = false;
        placePin(known.pin, target, thread.position);
      } else addPin(thread, target);
    }
    if (missing.length === 0) return;
    if (attempt < RETRIES) later(() => renderThreads(missing, attempt + 1), retryMs);
    else
      channel
        .send(COLLAB_SENT.missingThreads, {
          payload: { isElementPresent: false },
          threadUids: missing.map((t) => t._id),
        })
        .catch((error: unknown) => logger.error(error));
  }

  /** Pins follow their elements; a pin whose element is gone hides until it is back (spec 4). */
  function repositionAll() {
    for (const { thread, pin } of threads.values()) {
      const target = elementAt(doc, thread.elementXPath);
      pin.hidden = !target;
      if (target) placePin(pin, target, thread.position);
    }
    if (popup) placePopup(popup.node, popup.pin);
  }
  win.addEventListener('resize', repositionAll);
  cleanups.push(() => win.removeEventListener('resize', repositionAll));
  // Page changes (morphs, late images) move elements: pins follow, debounced 1000 ms (spec 9).
  const moved = debounce(repositionAll, MUTATION_DEBOUNCE_MS);
  const observer = new win.MutationObserver((records) => {
    if (records.every((r) => host.contains(r.target))) return;
    moved();
  });
  observer.observe(doc.body, { childList: true, subtree: true, attributes: true, characterData: true });
  cleanups.push(() => {
    observer.disconnect();
    moved.cancel();
  });

  // --- Feedback clicks -----------------------------------------------------------------------

  const onClick = (event: MouseEvent) => {
    if (!collab.enable || collab.pauseFeedback) return;
    const target = event.target;
    if (event.composedPath().includes(host) || !(target instanceof win.Element)) return;
    if (target.closest('[data-studio-ui="true"]')) return;
    event.preventDefault();
    event.stopPropagation();
    if (popup) {
      closePopup();
      return;
    }
    if (!collab.isFeedbackMode) return;
    const rect = target.getBoundingClientRect();
    const x = rect.width ? (event.clientX - rect.left) / rect.width : 0;
    const y = rect.height ? (event.clientY - rect.top) / rect.height : 0;
    const thread: Thread = {
      _id: 'new',
      elementXPath: xpathOf(target),
      position: { x: Math.min(1, Math.max(0, x)), y: Math.min(1, Math.max(0, y)) },
      author: me().email,
      createdBy: me().uid,
      pageRoute: pageRoute(win.location.pathname),
      inviteUid: collab.inviteMetadata.inviteUid,
    };
    removeThread('new');
    const pin = addPin(thread, target);
    openPopup(thread, pin);
  };
  win.addEventListener('click', onClick, true);
  cleanups.push(() => win.removeEventListener('click', onClick, true));

  // --- Popup ---------------------------------------------------------------------------------

  interface ThreadPopup {
    thread: Thread;
    node: HTMLElement;
    pin: HTMLButtonElement;
  }

  function closePopup() {
    if (!popup) return;
    const { thread, node } = popup;
    node.remove();
    popup = null;
    reposition.cancel();
    for (const { pin } of threads.values()) pin.classList.remove('collab-pin--active');
    // A never-saved pin goes with its popup; feedback mode comes back (spec 4).
    if (thread._id === 'new') removeThread('new');
    collab.isFeedbackMode = true;
  }

  function placePopup(node: HTMLElement, pin: HTMLElement) {
    const { left, top } = popupPosition(
      pin.getBoundingClientRect(),
      // Unmeasured (0 × 0) until laid out: then the default size.
      { width: node.offsetWidth, height: node.offsetHeight },
      { width: win.innerWidth, height: win.innerHeight },
    );
    node.style.left = `${left}px`;
    node.style.top = `${top}px`;
  }
  const reposition = debounce(() => {
    if (popup) placePopup(popup.node, popup.pin);
  }, INPUT_REPOSITION_MS);
  cleanups.push(() => reposition.cancel());

  function openPopup(thread: Thread, pin: HTMLButtonElement) {
    if (popup) {
      const previous = popup.thread;
      popup.node.remove();
      popup = null;
      if (previous._id === 'new' && thread._id !== 'new') removeThread('new');
    }
    collab.isFeedbackMode = false;
    pin.classList.add('collab-pin--active');
    const node = el('div', 'collab-thread', root);
    node.setAttribute('role', 'dialog');
    node.setAttribute('data-testid', 'collab-thread');
    popup = { thread, node, pin };
    buildPopup(thread, node, pin);
    placePopup(node, pin);
  }

  /** A new thread's element and point, read back from its pin (spec 5): without them, no thread. */
  function newThreadPayload(thread: Thread, pin: HTMLElement) {
    const elementXPath = pin.getAttribute('field-path');
    if (!elementXPath) throw new Error(COLLAB_ERRORS.fieldAttributes);
    const position = parseRelative(pin.getAttribute('relative'));
    if (!position) throw new Error(COLLAB_ERRORS.relative);
    const { author, createdBy, pageRoute, inviteUid } = thread;
    return { elementXPath, position, author, createdBy, pageRoute, inviteUid };
  }

  function buildPopup(thread: Thread, node: HTMLElement, pin: HTMLButtonElement) {
    let comments: Comment[] = [];
    let count = 0;
    let loading = false;
    let editing: Comment | null = null;
    let picked: Mention[] = [];

    const header = el('div', 'collab-thread__header', node);
    const title = el('span', 'collab-thread__title', header);
    const resolve = el('button', 'collab-button', header);
    resolve.type = 'button';
    resolve.textContent = 'Resolve';
    const list = el('div', 'collab-thread__list', node);
    list.setAttribute('data-testid', 'collab-thread-list');
    const form = el('div', 'collab-thread__form', node);
    const textarea = el('textarea', 'collab-textarea', form);
    textarea.placeholder = 'Type @ to mention';
    textarea.rows = 1;
    textarea.setAttribute('aria-label', 'Comment');
    const mentionList = el('ul', 'collab-mentions', form);
    mentionList.setAttribute('role', 'listbox');
    mentionList.hidden = true;
    const meta = el('div', 'collab-form__meta', form);
    const error = el('span', 'collab-error', meta);
    error.setAttribute('role', 'alert');
    const counter = el('span', 'collab-counter', meta);
    const buttons = el('div', 'collab-form__buttons', form);
    const cancel = el('button', 'collab-button', buttons);
    cancel.type = 'button';
    cancel.textContent = 'Cancel';
    const post = el('button', 'collab-button collab-button--primary', buttons);
    post.type = 'button';
    const footer = el('div', 'collab-thread__footer', node);
    footer.textContent = 'Comments are visible to everyone invited to this page.';

    const renderHeader = () => {
      title.textContent = headerText(count);
      // Any participant can resolve a thread that is not new (spec 6).
      resolve.hidden = thread._id === 'new';
    };

    function renderMessage(target: HTMLElement, message: string) {
      target.replaceChildren();
      const map = userMap();
      for (const part of message.split(/(\{\{[^{}]+\}\})/)) {
        const uid = /^\{\{([^{}]+)\}\}$/.exec(part)?.[1];
        const user = uid ? map.get(uid) : undefined;
        if (user) el('span', 'collab-mention', target).textContent = `@${displayName(user)}`;
        else if (part) target.append(doc.createTextNode(part));
      }
    }

    function renderList() {
      list.replaceChildren();
      const map = userMap();
      for (const comment of comments) {
        const card = el('div', 'collab-comment', list);
        card.setAttribute('data-testid', 'collab-comment');
        const head = el('div', 'collab-comment__head', card);
        const author = map.get(comment.createdBy);
        const name = author ? displayName(author) : comment.author;
        const avatar = el('span', 'collab-avatar', head);
        avatar.textContent = initials(name);
        avatar.title = name;
        const who = el('div', 'collab-comment__who', head);
        el('strong', '', who).textContent = name;
        el('span', 'collab-comment__time', who).textContent = formatTime(comment.updatedAt ?? comment.createdAt);
        renderMessage(el('p', 'collab-comment__message', card), comment.message);
        // Only a comment's author may edit or delete it (spec 6).
        if (comment.createdBy === me().uid) {
          const actions = el('div', 'collab-comment__actions', card);
          const edit = el('button', 'collab-link', actions);
          edit.type = 'button';
          edit.textContent = 'Edit';
          edit.addEventListener('click', () => startEdit(comment));
          const remove = el('button', 'collab-link', actions);
          remove.type = 'button';
          remove.textContent = 'Delete';
          remove.addEventListener('click', () => void deleteComment(comment));
        }
      }
      if (loading) for (let i = 0; i < 3; i++) el('div', 'collab-skeleton', list).setAttribute('aria-busy', 'true');
      // The list changes the popup's height: place it again with its new size.
      if (popup?.node === node) placePopup(node, pin);
    }

    async function loadMore() {
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
          comments = comments.concat(reply.comments as Comment[]);
          count = typeof reply.count === 'number' ? reply.count : comments.length;
        }
      } catch (e) {
        logger.error(e);
      } finally {
        loading = false;
        renderList();
        renderHeader();
      }
    }
    list.addEventListener('scroll', () => {
      if (list.scrollHeight - list.scrollTop - list.clientHeight <= MORE_WITHIN_PX) void loadMore();
    });

    // --- The text area ---
    let options: User[] = [];
    let selected = 0;
    let query: { start: number; query: string } | null = null;

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
        const item = el('li', '', mentionList);
        item.setAttribute('role', 'option');
        item.setAttribute('aria-selected', String(i === selected));
        const name = displayName(user);
        el('span', 'collab-avatar', item).textContent = initials(name);
        el('span', '', item).textContent = truncateName(name);
        item.title = name;
        item.addEventListener('mousedown', (event) => {
          event.preventDefault();
          pick(user);
        });
      });
      // Flip above the input when less than 160 px is free below (spec 9).
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

    textarea.addEventListener('input', () => {
      query = mentionQuery(textarea.value, textarea.selectionStart ?? textarea.value.length);
      options = query ? filterUsers(users(), query.query) : [];
      selected = 0;
      // The form first: the row count moves the input the list is placed against.
      renderForm();
      renderMentions();
      reposition();
    });
    textarea.addEventListener('keydown', (event) => {
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
    });

    function startEdit(comment: Comment) {
      editing = comment;
      const shown = fromStored(comment.message, userMap());
      textarea.value = shown.text;
      picked = shown.mentions;
      renderForm();
      textarea.focus();
    }

    function resetForm() {
      editing = null;
      picked = [];
      textarea.value = '';
      query = null;
      renderMentions();
      renderForm();
    }

    async function submit() {
      const text = textarea.value;
      if (!text.trim() || validate(text, picked)) return;
      const { message, toUsers } = toStored(text, picked, parser);
      if (!message) return;
      const payload = { message, toUsers, images: [], createdBy: me().uid, author: me().email };
      post.disabled = true;
      try {
        if (editing) {
          const reply = await must<{ comment?: Comment }>(
            channel.send(COLLAB_SENT.editComment, { threadUid: thread._id, commentUid: editing._id, payload }),
            COLLAB_ERRORS.updateComment,
          );
          const id = editing._id;
          const updated = reply.comment ?? { ...editing, message, toUsers };
          comments = comments.map((c) => (c._id === id ? updated : c));
        } else {
          if (thread._id === 'new') {
            const reply = await must<{ thread?: Thread }>(
              channel.send(COLLAB_SENT.createThread, newThreadPayload(thread, pin)),
              'Failed to create thread',
            );
            const created = reply.thread;
            if (!created || typeof created._id !== 'string') throw new Error('Failed to create thread');
            threads.delete('new');
            thread._id = created._id;
            threads.set(thread._id, { thread, pin });
            pin.setAttribute('threaduid', thread._id);
          }
          const reply = await must<{ comment?: Comment }>(
            channel.send(COLLAB_SENT.createComment, { threadUid: thread._id, commentPayload: payload }),
            COLLAB_ERRORS.createComment,
          );
          if (!reply.comment) throw new Error(COLLAB_ERRORS.createComment);
          comments = [reply.comment, ...comments];
          count++;
        }
        resetForm();
        renderList();
        renderHeader();
      } catch (e) {
        // Comment submit errors are only logged (spec 8).
        logger.error(e);
        renderForm();
      }
    }
    post.addEventListener('click', () => void submit());
    cancel.addEventListener('click', () => {
      if (editing) resetForm();
      else closePopup();
    });

    async function deleteComment(comment: Comment) {
      try {
        await must(
          channel.send(COLLAB_SENT.deleteComment, { threadUid: thread._id, commentUid: comment._id }),
          COLLAB_ERRORS.deleteComment,
        );
        comments = comments.filter((c) => c._id !== comment._id);
        count = Math.max(0, count - 1);
        if (editing?._id === comment._id) resetForm();
        renderList();
        renderHeader();
        // Deleting the last comment deletes the thread (spec 4).
        if (count === 0) {
          await must(channel.send(COLLAB_SENT.deleteThread, { threadUid: thread._id }), COLLAB_ERRORS.deleteThread);
          removeThread(thread._id);
        }
      } catch (e) {
        logger.error(e);
      }
    }

    resolve.addEventListener('click', async () => {
      try {
        await must(
          channel.send(COLLAB_SENT.resolveThread, { threadUid: thread._id, payload: { threadState: 2 } }),
          COLLAB_ERRORS.resolveThread,
        );
        thread.threadState = 2;
        removeThread(thread._id);
      } catch (e) {
        logger.error(e);
      }
    });

    renderHeader();
    renderForm();
    void loadMore();
    textarea.focus();
  }

  // --- Editor messages (reference b.6) ---------------------------------------------------

  const handlers: Record<string, (data: unknown) => unknown> = {
    'collab-enable': (data) => {
      const c = collabOf(data);
      if (!c) return undefined;
      if (c.fromShare !== true) {
        collab.enable = true;
        if (isRecord(c.inviteMetadata)) collab.inviteMetadata = c.inviteMetadata as Config['collab']['inviteMetadata'];
      }
      if (typeof c.isFeedbackMode === 'boolean') collab.isFeedbackMode = c.isFeedbackMode;
      collab.pauseFeedback = c.pauseFeedback === true;
      applyPause();
      return undefined;
    },
    'collab-disable': (data) => {
      const c = collabOf(data);
      if (!c) return undefined;
      closePopup();
      // From the share view (or a pause) only pause changes; otherwise collaboration stops.
      if (c.fromShare === true || c.pauseFeedback === true) collab.pauseFeedback = true;
      else {
        collab.enable = false;
        collab.isFeedbackMode = false;
      }
      applyPause();
      return undefined;
    },
    'collab-data-update': (data) => {
      const c = collabOf(data);
      if (!c) return undefined;
      if (isRecord(c.inviteMetadata)) collab.inviteMetadata = c.inviteMetadata as Config['collab']['inviteMetadata'];
      if (Array.isArray(c.payload)) {
        collab.payload = c.payload;
        renderThreads(c.payload.filter(isThread));
      }
      return undefined;
    },
    'collab-threads-remove': (data) => {
      const uids = isRecord(data) && Array.isArray(data.threadUids) ? data.threadUids : [];
      for (const uid of uids) if (typeof uid === 'string') removeThread(uid);
      return undefined;
    },
    'collab-thread-reopen': (data) => {
      const thread = isRecord(data) ? data.thread : undefined;
      if (isThread(thread)) renderThreads([{ ...thread, threadState: 1 }]);
      return undefined;
    },
    'collab-thread-highlight': (data) => {
      const uid = isRecord(data) ? data.threadUid : undefined;
      const entry = typeof uid === 'string' ? threads.get(uid) : undefined;
      if (entry) {
        entry.pin.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
        openPopup(entry.thread, entry.pin);
      }
      return undefined;
    },
    ...commentIconHandlers(win, channel, root),
  };
  for (const [type, handler] of Object.entries(handlers)) channel.on(type, handler);

  applyPause();
  renderThreads(collab.payload.filter(isThread));

  return {
    handle: (type, data) => handlers[type]?.(data),
    destroy() {
      popup = null;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const cleanup of cleanups.splice(0)) cleanup();
    },
  };
}
