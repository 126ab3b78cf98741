import { h } from './h.ts';
import { PUBLISHED_HASH } from './timeline.ts';
import { VARIANT_UID } from './variant.ts';

/**
 * The bar above the page: storefront, locale, page and mode pickers (each opens the workbench
 * again with the choice), the Comments switch, compare and publish, and the status line.
 */

export interface Catalog {
  storefronts: { host: string; aliases: string[]; locales: string[]; defaultLocale: string }[];
  current: string;
  pages: Record<string, { uuid: string; title: string; path: string }[]>;
}

export type Storefront = Catalog['storefronts'][number];
/** What the frame shows: Live Preview, the visual builder, or a preview-share link (`preview_share`, 4.0.1). */
export type Mode = 'preview' | 'builder' | 'share';
const MODES: readonly Mode[] = ['preview', 'builder', 'share'];

/** What the workbench shows: from the address, falling back to the storefront's defaults. */
export interface Choice {
  storefront: Storefront;
  locale: string;
  page: Catalog['pages'][string][number] | undefined;
  mode: Mode;
}

export function choose(catalog: Catalog, query: URLSearchParams): Choice | null {
  const storefront = catalog.storefronts.find((s) => s.host === catalog.current) ?? catalog.storefronts[0];
  if (!storefront) return null;
  const asked = query.get('locale') ?? '';
  const locale = storefront.locales.includes(asked) ? asked : storefront.defaultLocale;
  const pages = catalog.pages[locale] ?? [];
  return {
    storefront,
    locale,
    page: pages.find((p) => p.uuid === query.get('page')) ?? pages[0],
    mode: MODES.find((m) => m === query.get('mode')) ?? 'preview',
  };
}

/**
 * Where a picker leads: the same workbench with other parameters, or, for another storefront
 * (another origin), the workbench there with the token in the fragment.
 */
export function destination(
  catalog: Catalog,
  choice: Choice,
  next: { host?: string; locale?: string; page?: string; mode?: string },
  here: Pick<Location, 'protocol' | 'hostname' | 'port' | 'pathname'>,
  token: string,
): { search: string } | { href: string } {
  const params = new URLSearchParams({
    locale: next.locale ?? choice.locale,
    page: next.page ?? choice.page?.uuid ?? '',
    mode: next.mode ?? choice.mode,
  });
  if (!next.host || next.host === choice.storefront.host) return { search: params.toString() };
  const target = catalog.storefronts.find((s) => s.host === next.host);
  const onAlias = choice.storefront.aliases.includes(here.hostname);
  const hostname = (onAlias ? target?.aliases[0] : undefined) ?? next.host;
  params.delete('locale');
  params.delete('page');
  const port = here.port ? `:${here.port}` : '';
  return { href: `${here.protocol}//${hostname}${port}${here.pathname}?${params}#token=${encodeURIComponent(token)}` };
}

export interface Bar {
  element: HTMLElement;
  comments: HTMLInputElement;
  compareBase: HTMLSelectElement;
  compare: HTMLButtonElement;
  publish: HTMLButtonElement;
  /** Opens the preview in a new tab, the workbench its opener (4.x new-tab Live Preview). */
  newTab: HTMLButtonElement;
  /** The workbench variant to show (builder mode, 4.x audiences; variant.ts). */
  variant: HTMLSelectElement;
  say(text: string, kind?: 'info' | 'error'): void;
}

export function createBar(
  catalog: Catalog,
  choice: Choice,
  go: (next: Parameters<typeof destination>[2]) => void,
): Bar {
  const { storefront, locale, page, mode } = choice;
  const status = h('output', { className: 'wb-status', 'aria-live': 'polite' });
  const select = (name: string, options: [string, string][], value: string, pick: (value: string) => void) => {
    const node = h(
      'select',
      { name },
      ...options.map(([v, label]) => h('option', { value: v, selected: v === value }, label)),
    );
    node.addEventListener('change', () => pick(node.value));
    return node;
  };
  const pages = catalog.pages[locale] ?? [];
  const comments = h('input', { type: 'checkbox', name: 'comments', disabled: mode === 'preview' });
  const compareBase = h('select', { name: 'base' }, h('option', { value: PUBLISHED_HASH }, 'published'));
  const compare = h('button', { type: 'button', name: 'compare' }, 'Compare');
  const publish = h('button', { type: 'button', name: 'publish', disabled: true }, 'Publish');
  const newTab = h('button', { type: 'button', name: 'new-tab' }, 'Open in a new tab');
  const variant = h(
    'select',
    { name: 'variant', disabled: mode !== 'builder' },
    h('option', { value: '' }, 'base entry'),
    h('option', { value: VARIANT_UID }, 'workbench variant'),
  );
  const element = h(
    'header',
    { className: 'wb-bar' },
    h('h1', {}, 'Vitrine workbench'),
    h(
      'label',
      {},
      'Storefront',
      select(
        'storefront',
        catalog.storefronts.map((s) => [s.host, s.host]),
        storefront.host,
        (host) => go({ host }),
      ),
    ),
    h(
      'label',
      {},
      'Locale',
      select(
        'locale',
        storefront.locales.map((l) => [l, l]),
        locale,
        (value) => go({ locale: value, page: '' }),
      ),
    ),
    h(
      'label',
      {},
      'Page',
      select(
        'page',
        pages.map((p) => [p.uuid, `${p.title} (${p.uuid})`]),
        page?.uuid ?? '',
        (value) => go({ page: value }),
      ),
    ),
    h(
      'label',
      {},
      'Mode',
      select(
        'mode',
        [
          ['preview', 'Preview'],
          ['builder', 'Builder'],
          ['share', 'Preview share'],
        ],
        mode,
        (value) => go({ mode: value }),
      ),
    ),
    h('label', { title: 'Collaboration (builder mode)' }, comments, 'Comments'),
    h('label', { title: 'An audience variant with the fields ticked for it (builder mode)' }, 'Variant', variant),
    h('label', {}, 'Base', compareBase),
    compare,
    publish,
    newTab,
    status,
  );
  return {
    element,
    comments,
    compareBase,
    compare,
    publish,
    newTab,
    variant,
    say(text, kind = 'info') {
      status.textContent = text;
      status.dataset.kind = kind;
    },
  };
}
