import { EventManager } from '@contentstack/advanced-post-message';
import { answerBuilder, answerCollab, answerLivePreview, commentsSwitch } from './answers.ts';
import { type Api, createApi, loginForm, readToken } from './api.ts';
import { type Catalog, choose, createBar, destination } from './bar.ts';
import type { CollabState } from './collab.ts';
import { setupCompare } from './compare.ts';
import { createDrafts, sessionHash } from './drafts.ts';
import type { EditedEntry, JsonObject } from './entries.ts';
import { openFieldApp } from './field-app.ts';
import { createForm } from './form.ts';
import { h } from './h.ts';
import { createLog } from './log.ts';
import { setupPublish } from './publish.ts';
import { hearOnly } from './source.ts';
import { WORKBENCH_CSS } from './style.ts';
import { sendVariant, type VariantState } from './variant.ts';

/**
 * The preview workbench: the storefront page in an iframe on the left, a form of its entries on
 * the right, the message log below. Edits become drafts through the draft API and are announced
 * with `client-data-send`; the page morphs itself. The editor side of the protocol is the real
 * `@contentstack/advanced-post-message`, as in the Contentstack app. This file only wires the
 * modules: api, bar, form, log, drafts, answers, compare, publish.
 */

interface Loaded {
  page: JsonObject;
  path: string;
  template: { type: string; uid: string; entry: JsonObject } | null;
}

function entriesOf(loaded: Loaded, uuid: string, locale: string): EditedEntry[] {
  const entries: EditedEntry[] = [
    { type: 'pages', id: uuid, contentType: 'page', uid: String(loaded.page.uid), locale, value: loaded.page },
  ];
  const template = loaded.template;
  if (template)
    entries.push({
      type: template.type,
      id: template.uid,
      contentType: template.type,
      uid: template.uid,
      locale,
      value: template.entry,
    });
  return entries;
}

async function start(root: HTMLElement, api: Api, token: string): Promise<void> {
  let catalog: Catalog;
  try {
    catalog = await api<Catalog>('/__workbench/api/catalog');
  } catch (error) {
    root.replaceChildren(loginForm(window, (error as Error).message));
    return;
  }
  const choice = choose(catalog, new URLSearchParams(location.search));
  if (!choice) throw new Error('no storefront');
  const { storefront, locale, page, mode } = choice;
  const hash = sessionHash(sessionStorage);
  const bar = createBar(catalog, choice, (next) => {
    const to = destination(catalog, choice, next, location, token);
    if ('search' in to) location.search = to.search;
    else location.href = to.href;
  });
  const { say } = bar;
  const frame = h('iframe', { className: 'wb-frame', name: 'site', title: 'Storefront preview' });
  const log = createLog();
  const side = h('div');
  root.replaceChildren(h('div', { className: 'wb' }, bar.element, frame, side, log.element));
  if (!page) {
    say('This locale has no pages', 'error');
    return;
  }

  window.addEventListener('message', (event) => {
    if (event.source === frame.contentWindow) log.add('in', event.data);
  });
  // The managers post through a stand-in for the frame's window, so outgoing messages are logged too.
  const options = { target: log.loggingTarget(frame), targetOrigin: location.origin, suppressErrors: true };
  const lp = new EventManager('live-preview', options);
  const vb = new EventManager('visual-builder', options);
  const timeline = new EventManager('timeline', options);
  // A preview opened in a new tab has managers of its own: each hears only its window.
  for (const manager of [lp, vb, timeline]) hearOnly(window, manager, () => frame.contentWindow);
  const tabs: { tab: Window; manager: EventManager }[] = [];

  const loaded = await api<Loaded>(
    `/__workbench/api/entries?${new URLSearchParams({ locale, uuid: page.uuid, hash })}`,
  );
  const drafts = createDrafts({
    api,
    hash,
    announce: (draft) =>
      Promise.all([
        lp.send('client-data-send', { hash: draft }),
        ...tabs
          .filter(({ tab }) => !tab.closed)
          .map(({ manager }) => manager.send('client-data-send', { hash: draft })),
      ]),
    say,
    saved: () => {
      bar.publish.disabled = false;
    },
  });
  const form = createForm({
    entries: entriesOf(loaded, page.uuid, locale),
    drafts,
    // The layer keeps permissions for the page's lifetime: only a reload asks again.
    permissionsChanged: () => {
      if (mode !== 'preview') frame.contentWindow?.location.reload();
    },
    // The layer re-asks for schemas after `get-variant-id`.
    schemasChanged: () => {
      if (mode === 'builder') vb.send('get-variant-id', { variant: undefined }).catch(() => undefined);
    },
  });
  side.replaceWith(form.element);
  form.render();

  const collabUrl = `/__workbench/api/collab?${new URLSearchParams({ locale, uuid: page.uuid })}`;
  const collab = await api<CollabState>(collabUrl).catch((): CollabState => ({ threads: [], comments: [] }));
  const openApp = (payload: Parameters<typeof openFieldApp>[1]) => openFieldApp(vb, payload, say);
  const variant: VariantState = { selected: undefined, fields: form.variantFields };
  const windowType = mode === 'share' ? ('preview-share' as const) : mode;
  const answers = {
    api,
    form,
    page,
    mode: windowType,
    masterLocale: storefront.defaultLocale,
    collab,
    say,
    variant,
    openApp,
  };
  answerLivePreview(lp, answers);
  answerCollab(vb, { api, collab, collabUrl, say });
  commentsSwitch(vb, bar.comments, { api, collab, collabUrl, say });
  answerBuilder(vb, answers);
  setupCompare(bar.compareBase, bar.compare, { api, timeline, locale, hash, path: loaded.path, say });
  setupPublish(bar.publish, api, drafts, say);
  bar.variant.addEventListener('change', () => {
    variant.selected = bar.variant.value || undefined;
    sendVariant(vb, variant, locale).catch(() => say('The page did not take the variant', 'error'));
  });

  const src = new URL(loaded.path, location.origin);
  src.search = new URLSearchParams({
    live_preview: hash,
    content_type_uid: 'page',
    entry_uid: page.uuid,
    // A preview-share link has the builder's UI without `builder` (4.0.1).
    ...(mode === 'builder' ? { builder: 'true' } : mode === 'share' ? { preview_share: 'true' } : {}),
  }).toString();
  frame.src = src.href;
  say(`Draft hash ${hash}`);

  // 4.x new-tab Live Preview: the workbench is the tab's opener, and answers it on the live-preview
  // channel only (the builder and timeline stay with a framed page, as in 4.4.1).
  bar.newTab.addEventListener('click', () => {
    const url = new URL(src);
    url.searchParams.delete('builder');
    const tab = window.open(url, '_blank');
    if (!tab) return say('The browser blocked the new tab', 'error');
    const manager = new EventManager('live-preview', {
      target: tab,
      targetOrigin: location.origin,
      suppressErrors: true,
    });
    hearOnly(window, manager, () => tab);
    answerLivePreview(manager, { ...answers, mode: 'preview' });
    tabs.push({ tab, manager });
  });
}

const root = document.getElementById('workbench') as HTMLElement;
const sheet = new CSSStyleSheet();
sheet.replaceSync(WORKBENCH_CSS);
document.adoptedStyleSheets = [sheet];
const token = readToken(window);
if (token) void start(root, createApi(window, token), token);
else root.replaceChildren(loginForm(window));
