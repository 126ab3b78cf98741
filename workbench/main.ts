import { EventManager } from '@contentstack/advanced-post-message';
import { COLLAB_HANDLERS, type CollabState, collabInit } from './collab.ts';
import {
  addInstance,
  cslpBase,
  deleteInstance,
  type EditedEntry,
  editableFields,
  type FormField,
  getAt,
  type Json,
  type JsonObject,
  moveInstance,
  setAt,
} from './entries.ts';
import { WORKBENCH_CSS } from './style.ts';
import { compareWith, PUBLISHED_HASH, removeCompare } from './timeline.ts';

/**
 * The preview workbench (issue 13): the storefront page in an iframe on the left, a form of its
 * entries on the right, the message log below. Edits become drafts through the draft API and are
 * announced with `client-data-send`; the page morphs itself. The editor side of the protocol is the
 * real `@contentstack/advanced-post-message`, as in the Contentstack app.
 */

interface Catalog {
  storefronts: { host: string; aliases: string[]; locales: string[]; defaultLocale: string }[];
  current: string;
  pages: Record<string, { uuid: string; title: string; path: string }[]>;
}

interface CslpData {
  content_type_uid: string;
  entry_uid: string;
  locale: string;
  cslpValue: string;
  fieldPath: string;
  fieldPathWithIndex: string;
  instance?: { fieldPathWithIndex: string };
}

type Channel = 'live-preview' | 'visual-builder' | 'timeline';

const TOKEN_KEY = 'vitrine-workbench-token';
const HASH_KEY = 'vitrine-workbench-hash';
const query = new URLSearchParams(location.search);
const root = document.getElementById('workbench') as HTMLElement;
const sheet = new CSSStyleSheet();
sheet.replaceSync(WORKBENCH_CSS);
document.adoptedStyleSheets = [sheet];

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> & Record<string, unknown> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key.startsWith('data-') || key.startsWith('aria-')) element.setAttribute(key, String(value));
    else (element as unknown as Record<string, unknown>)[key] = value;
  }
  element.append(...children);
  return element;
}

// --- the token: from `#token=` (then dropped from the address) or this tab's session ---
const fragment = new URLSearchParams(location.hash.slice(1));
if (fragment.get('token')) {
  sessionStorage.setItem(TOKEN_KEY, fragment.get('token') as string);
  history.replaceState(null, '', location.pathname + location.search);
}
const token = sessionStorage.getItem(TOKEN_KEY);

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(path, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });
  if (response.status === 401) {
    sessionStorage.removeItem(TOKEN_KEY);
    throw new Error('The draft API token was refused');
  }
  const text = await response.text();
  const body = text ? (JSON.parse(text) as T & { error?: string }) : ({} as T & { error?: string });
  if (!response.ok) throw new Error(body.error ?? `HTTP ${response.status}`);
  return body;
}

function login(): void {
  const input = el('input', { type: 'password', name: 'token', autocomplete: 'off', required: true });
  const form = el(
    'form',
    { className: 'wb-login' },
    el('h1', {}, 'Preview workbench'),
    el('p', {}, 'Enter the draft API token (DRAFT_API_TOKEN) of this server.'),
    el('label', {}, 'Token', input),
    el('button', { type: 'submit' }, 'Open'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, input.value);
    location.reload();
  });
  root.replaceChildren(form);
}

async function start(): Promise<void> {
  let catalog: Catalog;
  try {
    catalog = await api<Catalog>('/__workbench/api/catalog');
  } catch (error) {
    login();
    root.querySelector('p')?.append(` (${(error as Error).message})`);
    return;
  }
  const storefront = catalog.storefronts.find((s) => s.host === catalog.current) ?? catalog.storefronts[0];
  if (!storefront) throw new Error('no storefront');
  const locale = storefront.locales.includes(query.get('locale') ?? '')
    ? (query.get('locale') as string)
    : storefront.defaultLocale;
  const pages = catalog.pages[locale] ?? [];
  const page = pages.find((p) => p.uuid === query.get('page')) ?? pages[0];
  const mode = query.get('mode') === 'builder' ? 'builder' : 'preview';
  let hash = sessionStorage.getItem(HASH_KEY);
  if (!hash) {
    hash = `wb-${crypto.randomUUID().slice(0, 13).replace(/-/g, '')}`;
    sessionStorage.setItem(HASH_KEY, hash);
  }
  const draftHash = hash;

  // --- the bar: storefront, locale, page, mode pickers; compare and publish ---
  const status = el('output', { className: 'wb-status', 'aria-live': 'polite' });
  const say = (text: string, kind: 'info' | 'error' = 'info') => {
    status.textContent = text;
    status.dataset.kind = kind;
  };
  const select = (name: string, options: [string, string][], value: string) =>
    el('select', { name }, ...options.map(([v, label]) => el('option', { value: v, selected: v === value }, label)));
  const storefrontSelect = select(
    'storefront',
    catalog.storefronts.map((s) => [s.host, s.host]),
    storefront.host,
  );
  const localeSelect = select(
    'locale',
    storefront.locales.map((l) => [l, l]),
    locale,
  );
  const pageSelect = select(
    'page',
    pages.map((p) => [p.uuid, `${p.title} (${p.uuid})`]),
    page?.uuid ?? '',
  );
  const modeSelect = select(
    'mode',
    [
      ['preview', 'Preview'],
      ['builder', 'Builder'],
    ],
    mode,
  );
  const commentsToggle = el('input', { type: 'checkbox', name: 'comments', disabled: mode !== 'builder' });
  const compareBase = el('select', { name: 'base' }, el('option', { value: PUBLISHED_HASH }, 'published'));
  const compareButton = el('button', { type: 'button', name: 'compare' }, 'Compare');
  const publishButton = el('button', { type: 'button', name: 'publish', disabled: true }, 'Publish');
  const go = (next: { host?: string; locale?: string; page?: string; mode?: string }) => {
    const params = new URLSearchParams({
      locale: next.locale ?? locale,
      page: next.page ?? page?.uuid ?? '',
      mode: next.mode ?? mode,
    });
    if (!next.host || next.host === storefront.host) {
      location.search = params.toString();
      return;
    }
    // Another storefront is another origin: the workbench opens there, with the token in the fragment.
    const target = catalog.storefronts.find((s) => s.host === next.host);
    const onAlias = storefront.aliases.includes(location.hostname);
    const hostname = (onAlias ? target?.aliases[0] : undefined) ?? next.host;
    params.delete('locale');
    params.delete('page');
    location.href = `${location.protocol}//${hostname}${location.port ? `:${location.port}` : ''}${location.pathname}?${params}#token=${encodeURIComponent(token ?? '')}`;
  };
  storefrontSelect.addEventListener('change', () => go({ host: storefrontSelect.value }));
  localeSelect.addEventListener('change', () => go({ locale: localeSelect.value, page: '' }));
  pageSelect.addEventListener('change', () => go({ page: pageSelect.value }));
  modeSelect.addEventListener('change', () => go({ mode: modeSelect.value }));

  const bar = el(
    'header',
    { className: 'wb-bar' },
    el('h1', {}, 'Vitrine workbench'),
    el('label', {}, 'Storefront', storefrontSelect),
    el('label', {}, 'Locale', localeSelect),
    el('label', {}, 'Page', pageSelect),
    el('label', {}, 'Mode', modeSelect),
    el('label', { title: 'Collaboration (builder mode)' }, commentsToggle, 'Comments'),
    el('label', {}, 'Base', compareBase),
    compareButton,
    publishButton,
    status,
  );
  const frame = el('iframe', { className: 'wb-frame', name: 'site', title: 'Storefront preview' });
  const side = el('aside', { className: 'wb-side', 'aria-label': 'Entries' });
  const logBody = el('tbody');
  const clearLog = el('button', { type: 'button' }, 'Clear');
  clearLog.addEventListener('click', () => logBody.replaceChildren());
  const log = el(
    'section',
    { className: 'wb-log', 'aria-label': 'Message log' },
    el('div', { className: 'wb-log-head' }, el('strong', {}, 'Messages'), clearLog),
    el('table', {}, logBody),
  );
  root.replaceChildren(el('div', { className: 'wb' }, bar, frame, side, log));
  if (!page) {
    say('This locale has no pages', 'error');
    return;
  }

  // --- the message log: every message both ways ---
  const logMessage = (direction: 'in' | 'out', message: unknown) => {
    const m = message as {
      eventManager?: string;
      channel?: string;
      type?: string;
      metadata?: { nature?: string };
      payload?: unknown;
      error?: unknown;
    };
    if (m?.eventManager !== 'contentstack-adv-post-message') return;
    const body = m.error !== undefined ? { error: m.error } : m.payload;
    const row = el(
      'tr',
      { 'data-direction': direction, 'data-type': m.type ?? '', 'data-channel': m.channel ?? '' },
      el('td', {}, new Date().toISOString().slice(11, 23)),
      el('td', {}, direction === 'in' ? '← page' : '→ page'),
      el('td', {}, m.channel ?? ''),
      el('td', {}, m.metadata?.nature ?? ''),
      el('td', {}, m.type ?? ''),
      el('td', {}, body === undefined ? '' : JSON.stringify(body)),
    );
    logBody.append(row);
    while (logBody.rows.length > 500) logBody.rows[0]?.remove();
    if (log.scrollTop + log.clientHeight >= log.scrollHeight - 40) log.scrollTop = log.scrollHeight;
  };
  window.addEventListener('message', (event) => {
    if (event.source === frame.contentWindow) logMessage('in', event.data);
  });
  // The managers post through this stand-in for the frame's window, so outgoing messages are logged too.
  const target = {
    postMessage(message: unknown, targetOrigin: string) {
      logMessage('out', message);
      frame.contentWindow?.postMessage(message, targetOrigin);
    },
    get closed() {
      return false;
    },
  } as unknown as Window;
  const options = { target, targetOrigin: location.origin, suppressErrors: true };
  const channels: Record<Channel, EventManager> = {
    'live-preview': new EventManager('live-preview', options),
    'visual-builder': new EventManager('visual-builder', options),
    timeline: new EventManager('timeline', options),
  };

  // --- the entries and their form ---
  const lp = channels['live-preview'];
  const vb = channels['visual-builder'];
  const loaded = await api<{
    page: JsonObject;
    path: string;
    template: { type: string; uid: string; entry: JsonObject } | null;
  }>(`/__workbench/api/entries?${new URLSearchParams({ locale, uuid: page.uuid, hash: draftHash })}`);
  const entries: EditedEntry[] = [
    { type: 'pages', id: page.uuid, contentType: 'page', uid: String(loaded.page.uid), locale, value: loaded.page },
  ];
  if (loaded.template)
    entries.push({
      type: loaded.template.type,
      id: loaded.template.uid,
      contentType: loaded.template.type,
      uid: loaded.template.uid,
      locale,
      value: loaded.template.entry,
    });
  const entryOf = (contentType: string, uid: string) =>
    entries.find((e) => e.contentType === contentType && e.uid === uid);
  const dirty = new Set<EditedEntry>();
  /** Entries answered with `update: false` (get-permissions): "You do not have permission to edit this entry". */
  const readOnly = new Set<EditedEntry>();
  /** `{content type}:{field path without indexes}` answered with `updateRestrict` in the field schema. */
  const lockedFields = new Set<string>();
  const schemaPath = (path: string) =>
    path
      .split('.')
      .filter((s) => !/^\d+$/.test(s))
      .join('.');
  /** The layer caches schemas and permissions: it re-asks for schemas after `get-variant-id`, for permissions after a reload. */
  const refreshSchemas = () => {
    if (mode === 'builder') vb.send('get-variant-id', { variant: undefined }).catch(() => undefined);
  };

  const saveTimers = new Map<EditedEntry, ReturnType<typeof setTimeout>>();
  /** Writes the entry's draft, then tells the page (unless the page itself is the one typing). */
  async function saveDraft(entry: EditedEntry, announce = true): Promise<void> {
    const url = `/cs/api/contentstack/_drafts/${draftHash}/${entry.locale}/${entry.type}/${entry.id}`;
    try {
      await api(url, { method: 'PUT', body: JSON.stringify(entry.value) });
      dirty.add(entry);
      publishButton.disabled = false;
      say(`Draft saved (${entry.contentType} ${entry.uid})`);
      if (announce) await channels['live-preview'].send('client-data-send', { hash: draftHash });
    } catch (error) {
      say(`Draft not saved: ${(error as Error).message}`, 'error');
    }
  }
  const scheduleSave = (entry: EditedEntry) => {
    clearTimeout(saveTimers.get(entry));
    saveTimers.set(
      entry,
      setTimeout(() => void saveDraft(entry), 250),
    );
  };

  function fieldInput(entry: EditedEntry, field: FormField): HTMLElement {
    const input =
      field.kind === 'multiline'
        ? el('textarea', { rows: 3, value: String(field.value) })
        : el('input', { type: field.kind === 'number' ? 'number' : 'text', value: String(field.value) });
    input.name = `${entry.contentType}.${entry.uid}.${field.path}`;
    input.dataset.cslp = `${cslpBase(entry)}.${field.path}`;
    const lockKey = `${entry.contentType}:${schemaPath(field.path)}`;
    input.disabled = readOnly.has(entry) || lockedFields.has(lockKey);
    input.addEventListener('input', () => {
      const value: Json = field.kind === 'number' ? Number(input.value) : input.value;
      if (setAt(entry.value, field.path, value)) scheduleSave(entry);
    });
    const lock = el('input', { type: 'checkbox', checked: lockedFields.has(lockKey), name: `lock:${input.name}` });
    lock.addEventListener('change', () => {
      if (lock.checked) lockedFields.add(lockKey);
      else lockedFields.delete(lockKey);
      renderForm();
      refreshSchemas();
    });
    return el(
      'div',
      { className: 'wb-field' },
      el('label', {}, el('span', {}, field.label), input),
      el(
        'label',
        { className: 'wb-lock', title: 'Answer get-field-schema with updateRestrict' },
        lock,
        ' read-only field',
      ),
    );
  }

  function renderForm(): void {
    side.replaceChildren(
      ...entries.map((entry) => {
        const lock = el('input', { type: 'checkbox', checked: readOnly.has(entry) });
        lock.addEventListener('change', () => {
          if (lock.checked) readOnly.add(entry);
          else readOnly.delete(entry);
          renderForm();
          // The layer keeps permissions for the page's lifetime.
          if (mode === 'builder') frame.contentWindow?.location.reload();
        });
        return el(
          'fieldset',
          { 'data-entry': cslpBase(entry) },
          el(
            'legend',
            {},
            `${entry.contentType} ${entry.uid}`,
            el(
              'label',
              { className: 'wb-lock', title: 'Answer get-permissions with update: false' },
              lock,
              ' read-only',
            ),
          ),
          ...editableFields(entry.value).map((field) => fieldInput(entry, field)),
        );
      }),
    );
  }
  renderForm();

  /** The form field of a tag, brought into view and marked. */
  const focusField = (cslp: string) => {
    for (const marked of side.querySelectorAll('[data-focused]')) marked.removeAttribute('data-focused');
    const input = side.querySelector<HTMLInputElement>(`[data-cslp="${CSS.escape(cslp)}"]`);
    if (!input) return;
    input.closest('.wb-field')?.setAttribute('data-focused', '');
    input.scrollIntoView({ block: 'nearest' });
  };
  /** A value written from the page (builder): into the entry, the form and the draft. */
  const applyFromPage = (meta: CslpData | undefined, data: unknown, announce: boolean) => {
    const entry = meta && entryOf(meta.content_type_uid, meta.entry_uid);
    if (!meta || !entry || readOnly.has(entry)) return;
    const path = meta.instance?.fieldPathWithIndex ?? meta.fieldPathWithIndex;
    const old = getAt(entry.value, path);
    const value: Json = typeof old === 'number' ? Number(data) : String(data ?? '');
    if (!setAt(entry.value, path, value)) return;
    const input = side.querySelector<HTMLInputElement>(`[data-cslp="${CSS.escape(`${cslpBase(entry)}.${path}`)}"]`);
    if (input) input.value = String(value);
    void saveDraft(entry, announce);
  };
  const structural = async (meta: CslpData | undefined, change: (value: Json) => boolean) => {
    const entry = meta && entryOf(meta.content_type_uid, meta.entry_uid);
    if (!entry || readOnly.has(entry) || !change(entry.value)) return;
    renderForm();
    await saveDraft(entry);
  };

  // --- answers to the layer ---
  lp.on('init', () => ({ contentTypeUid: 'page', entryUid: page.uuid, windowType: mode }));
  lp.on('check-entry-page', () => undefined);
  lp.on('url-change', () => undefined);
  lp.on('scroll', (event) => {
    const d = event.data as { field: string; content_type_uid: string; entry_uid: string; locale: string };
    focusField(`${d.content_type_uid}.${d.entry_uid}.${d.locale}.${d.field}`);
  });
  // --- collaboration: threads and comments of this page, saved by the server under the draft area ---
  const collabUrl = `/__workbench/api/collab?${new URLSearchParams({ locale, uuid: page.uuid })}`;
  const collab = await api<CollabState>(collabUrl).catch(() => ({ threads: [], comments: [] }) as CollabState);
  for (const [type, { run, changes }] of Object.entries(COLLAB_HANDLERS)) {
    vb.on(type, async (event) => {
      const answer = run(collab, (event.data ?? {}) as Record<string, unknown>);
      if (changes)
        await api(collabUrl, { method: 'PUT', body: JSON.stringify(collab) }).catch((error: Error) =>
          say(error.message, 'error'),
        );
      return answer;
    });
  }
  commentsToggle.addEventListener('change', () => {
    const message = commentsToggle.checked
      ? vb.send('collab-enable', { collab: { ...collabInit(collab, true), pauseFeedback: false, fromShare: false } })
      : vb.send('collab-disable', { collab: {} });
    message.catch((error: unknown) => say(`Comments: ${String((error as Error)?.message ?? error)}`, 'error'));
  });

  vb.on('init', () => ({
    windowType: 'builder',
    stackDetails: { masterLocale: storefront.defaultLocale },
    collab: collabInit(collab, false),
  }));
  vb.on('send-variant-and-locale', () => undefined);
  const schemas = new Map<string, Promise<unknown>>();
  vb.on('get-field-schema', async (event) => {
    const type = (event.data as { contentTypeUid: string }).contentTypeUid;
    if (!schemas.has(type))
      schemas.set(
        type,
        api(`/__workbench/api/field-schema/${encodeURIComponent(type === 'page' ? 'pages' : type)}`).catch(() => ({
          fieldSchemaMap: {},
        })),
      );
    const { fieldSchemaMap } = (await schemas.get(type)) as { fieldSchemaMap: Record<string, JsonObject> };
    const answer: Record<string, JsonObject> = {};
    for (const [path, schema] of Object.entries(fieldSchemaMap)) {
      const locked = lockedFields.has(`${type}:${path}`);
      answer[path] = locked
        ? { ...schema, field_metadata: { ...(schema.field_metadata as JsonObject), updateRestrict: true } }
        : schema;
    }
    return { fieldSchemaMap: answer };
  });
  vb.on('get-permissions', (event) => {
    const d = event.data as { entryUid: string; contentTypeUid: string };
    const entry = entryOf(d.contentTypeUid, d.entryUid);
    const update = !entry || !readOnly.has(entry);
    return { create: true, read: true, update, delete: update, publish: update };
  });
  vb.on('get-field-variant-status', () => ({
    isAddedInstances: false,
    isBaseModified: false,
    isDeletedInstances: false,
    isOrderChanged: false,
    fieldLevelCustomizations: false,
  }));
  vb.on('get-field-data', (event) => {
    const d = event.data as { fieldMetadata: { content_type_uid: string; entry_uid: string }; entryPath: string };
    const entry = entryOf(d.fieldMetadata.content_type_uid, d.fieldMetadata.entry_uid);
    const value = entry && getAt(entry.value, d.entryPath);
    return value === undefined ? { error: true } : { fieldData: value };
  });
  vb.on('get-field-display-names', (event) =>
    Object.fromEntries(
      (event.data as CslpData[]).map((d) => [
        d.cslpValue,
        (d.fieldPath.split('.').pop() ?? d.fieldPath).replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()),
      ]),
    ),
  );
  vb.on('get-discussion-id-for-comment-modal', () => null);
  vb.on('mouse-click', (event) => {
    const d = event.data as { cslpData?: string };
    if (d.cslpData) focusField(d.cslpData);
  });
  vb.on('focus-field', (event) => {
    const stack = (event.data as { DOMEditStack: CslpData[] }).DOMEditStack;
    const last = stack[stack.length - 1];
    if (last) focusField(last.cslpValue);
  });
  vb.on('sync-field', (event) => {
    const d = event.data as { data: unknown; fieldMetadata: CslpData };
    applyFromPage(d.fieldMetadata, d.data, false);
  });
  vb.on('update-field', (event) => {
    const d = event.data as { data: unknown; fieldMetadata: CslpData };
    applyFromPage(d.fieldMetadata, d.data, true);
  });
  vb.on('add-instance', (event) => {
    const d = event.data as { fieldMetadata: CslpData; index: number };
    return structural(d.fieldMetadata, (v) => addInstance(v, d.fieldMetadata.fieldPathWithIndex, d.index));
  });
  vb.on('delete-instance', (event) => {
    const d = event.data as { data: string; fieldMetadata: CslpData };
    return structural(d.fieldMetadata, (v) => deleteInstance(v, d.data));
  });
  vb.on('move-instance', (event) => {
    const d = event.data as { data: string; direction: 'previous' | 'next'; fieldMetadata: CslpData };
    return structural(d.fieldMetadata, (v) => moveInstance(v, d.data, d.direction));
  });
  for (const type of ['open-field-edit-modal', 'open-asset-modal', 'open-reference-modal', 'open-field-comment-modal'])
    vb.on(type, () => say(`${type}: not offered by the workbench`));

  // --- compare (timeline channel): against the published page or another draft of this locale ---
  api<{ hashes: string[] }>(`/__workbench/api/drafts?${new URLSearchParams({ locale })}`)
    .then(({ hashes }) => {
      for (const other of hashes.filter((h) => h !== draftHash && h !== PUBLISHED_HASH))
        compareBase.append(el('option', { value: other }, `draft ${other}`));
    })
    .catch(() => undefined);

  // --- publish ---
  let comparing = false;
  compareButton.addEventListener('click', async () => {
    try {
      if (comparing) {
        await removeCompare(channels.timeline);
        compareButton.textContent = 'Compare';
      } else {
        const changed = await compareWith(channels.timeline, loaded.path, compareBase.value);
        compareButton.textContent = 'End compare';
        const base = compareBase.value === PUBLISHED_HASH ? 'the published page' : `draft ${compareBase.value}`;
        say(`${changed} field(s) differ from ${base}`);
      }
      comparing = !comparing;
    } catch (error) {
      say(`Compare failed: ${(error as Error).message}`, 'error');
    }
  });
  publishButton.addEventListener('click', async () => {
    try {
      for (const entry of [...dirty]) {
        await api('/__workbench/api/publish', {
          method: 'POST',
          body: JSON.stringify({ hash: draftHash, locale: entry.locale, type: entry.type, id: entry.id }),
        });
        dirty.delete(entry);
      }
      publishButton.disabled = dirty.size > 0;
      say('Published');
    } catch (error) {
      say(`Not published: ${(error as Error).message}`, 'error');
    }
  });

  const src = new URL(loaded.path, location.origin);
  src.search = new URLSearchParams({
    live_preview: draftHash,
    content_type_uid: 'page',
    entry_uid: page.uuid,
    ...(mode === 'builder' ? { builder: 'true' } : {}),
  }).toString();
  frame.src = src.href;
  say(`Draft hash ${draftHash}`);
}

if (token) void start();
else login();
