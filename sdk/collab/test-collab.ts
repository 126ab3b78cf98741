import type { Test } from 'tap';
import { baseConfig } from '../config/defaults.ts';
import { EDITOR_ORIGIN, fakeTime, framedSite } from '../test-editor.ts';
import { createChannel } from '../transport/channel.ts';
import { createPeer } from '../transport/peer.ts';
import { type Comment, startCollab, type Thread } from './collab.ts';

/**
 * Test support (never bundled): collaboration started in a happy-dom page framed by the real editor
 * library, which keeps threads and comments in memory and records every request.
 */
export const PAGE = 'https://www.halden.co.uk/cs/kitchen/?live_preview=h1&builder=true';
export const ME = { uid: 'u-ada', email: 'ada@halden.co.uk' };
export const USERS = [
  { uid: 'u-ada', email: 'ada@halden.co.uk', firstName: 'Ada', lastName: 'Lovelace' },
  { uid: 'u-bob', email: 'bob@halden.co.uk', firstName: 'Bob', lastName: 'Marley' },
  { uid: 'u-cy', email: 'cy@halden.co.uk', firstName: 'Cy' },
];

export function start(t: Test, options: { payload?: Thread[]; comments?: Comment[]; empty?: string[] } = {}) {
  const framed = framedSite({ url: PAGE });
  const time = fakeTime(t, framed);
  const win = framed.site;
  win.document.body.innerHTML = '<main><h1 data-cslp="page.p1.en.title">Title</h1><p>Body</p></main>';
  const editor = framed.editor('visual-builder');
  const sent: { type: string; data: Record<string, unknown> }[] = [];
  const threads = new Map<string, Thread>((options.payload ?? []).map((th) => [th._id, th]));
  let comments: Comment[] = options.comments ?? [];
  let next = 1;
  const on = (type: string, answer: (data: Record<string, unknown>) => unknown) =>
    editor.on(type, (event) => {
      const data = event.data as Record<string, unknown>;
      sent.push({ type, data });
      return options.empty?.includes(type) ? {} : answer(data);
    });
  on('collab-create-thread', (data) => {
    const thread = { ...(data as unknown as Thread), _id: `th-${next++}` };
    threads.set(thread._id, thread);
    return { notice: 'ok', thread };
  });
  on('collab-create-comment', (data) => {
    const payload = data.commentPayload as Comment;
    const comment = {
      ...payload,
      _id: `c-${next++}`,
      threadUid: data.threadUid as string,
      createdAt: new Date().toISOString(),
    };
    comments = [comment, ...comments];
    return { notice: 'ok', comment };
  });
  on('collab-edit-comment', (data) => {
    const payload = data.payload as Comment;
    comments = comments.map((c) => (c._id === data.commentUid ? { ...c, ...payload } : c));
    return { notice: 'ok', comment: comments.find((c) => c._id === data.commentUid) };
  });
  on('collab-delete-comment', (data) => {
    comments = comments.filter((c) => c._id !== data.commentUid);
    return { notice: 'ok' };
  });
  on('collab-delete-thread', (data) => {
    threads.delete(data.threadUid as string);
    return { notice: 'ok' };
  });
  on('collab-resolve-thread', (data) => ({ notice: 'ok', thread: threads.get(data.threadUid as string) }));
  on('collab-fetch-comments', (data) => {
    const mine = comments.filter((c) => c.threadUid === data.threadUid);
    const offset = data.offset as number;
    return { comments: mine.slice(offset, offset + (data.limit as number)), count: mine.length };
  });
  on('collab-missing-threads', () => undefined);
  const config = baseConfig();
  config.collab.enable = true;
  config.collab.isFeedbackMode = true;
  config.collab.inviteMetadata = { currentUser: ME, users: USERS, inviteUid: 'inv-1' };
  config.collab.payload = options.payload ?? [];
  const channel = createChannel('visual-builder', win, createPeer(win, [EDITOR_ORIGIN]));
  const collab = startCollab({ win, config, channel, retryMs: 20 });
  t.teardown(async () => {
    collab.destroy();
    channel.destroy();
    await framed.close();
  });
  const root = () => win.document.querySelector('[data-testid="collab__container"]')?.shadowRoot as ShadowRoot;
  const $ = (selector: string) => root().querySelector(selector) as HTMLElement | null;
  const $$ = (selector: string) => Array.from(root().querySelectorAll(selector)) as HTMLElement[];
  const click = (element: Element) =>
    element.dispatchEvent(new win.MouseEvent('click', { bubbles: true, cancelable: true, clientX: 0, clientY: 0 }));
  const type = (text: string) => {
    const area = $('textarea') as HTMLTextAreaElement;
    area.value = text;
    area.setSelectionRange(text.length, text.length);
    area.dispatchEvent(new win.Event('input', { bubbles: true }));
  };
  const key = (k: string) =>
    ($('textarea') as HTMLElement).dispatchEvent(
      new win.KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }),
    );
  const button = (text: string) => $$('button').find((b) => b.textContent === text) as HTMLButtonElement;
  const inject = (type: string, payload: unknown) => time.settled(editor.send(type, payload));
  return {
    ...time,
    win,
    config,
    editor,
    sent,
    threads,
    root,
    $,
    $$,
    click,
    type,
    key,
    button,
    inject,
    collab,
    comments: () => comments,
  };
}

export const h1 = (win: Window) => win.document.querySelector('h1') as Element;
export const THREAD: Thread = {
  _id: 'th-old',
  elementXPath: '/html[1]/body[1]/main[1]/p[1]',
  position: { x: 0.5, y: 0.5 },
  author: 'bob@halden.co.uk',
  createdBy: 'u-bob',
  pageRoute: '/cs/kitchen',
  inviteUid: 'inv-1',
  threadState: 1,
};
export const BOB_COMMENT: Comment = {
  _id: 'c-bob',
  threadUid: 'th-old',
  message: 'Hello {{u-ada}}',
  toUsers: ['u-ada'],
  images: [],
  createdBy: 'u-bob',
  author: 'bob@halden.co.uk',
  createdAt: '2026-03-04T12:07:00Z',
};
