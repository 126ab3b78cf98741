import type { ComponentEntry, LayoutName } from '../../common/content.ts';
import type { HeaderProps } from '../../islands/header/Header.tsx';
import type { Crumb } from './breadcrumbs.ts';
import type { FootnoteCollection } from './footnotes.ts';
import type { HeadModel } from './head.ts';

export interface SwitcherLink {
  label: string;
  href: string;
  /** BCP 47 tag of the target, for `hreflang` and `lang` on the link. */
  lang: string;
  current: boolean;
}

/** Everything a page render needs, assembled before rendering starts (so status and head are known). */
export interface PageModel {
  kind: 'page';
  locale: string;
  layout: LayoutName;
  head: HeadModel;
  heading: string;
  breadcrumbs: Crumb[];
  breadcrumbsTheme: { theme: string; background: string };
  zones: { header: ComponentEntry[]; body: ComponentEntry[]; footer: ComponentEntry[] };
  /** `{content_type_uid}.{entry_uid}.{locale}` of the template, the base of data-cslp paths. */
  cslpBase: string;
  /** Full data-cslp path of the page heading (the page entry's page_title or title). */
  headingCslp: string;
  header: HeaderProps | null;
  brand: { name: string; homeHref: string };
  languages: SwitcherLink[];
  countries: SwitcherLink[];
  /** Island names on this page, known before render so the head can preload their code. */
  islands: string[];
  footnotes: FootnoteCollection;
  preview: boolean;
  /** Live preview: the layer's script on preview responses only. */
  previewScript?: PreviewScript;
}

/** The live-preview layer's script tag and the configuration it reads from a JSON block (no inline script). */
export interface PreviewScript {
  src: string;
  /** id of the `<script type="application/json">` block. */
  configId: string;
  config: unknown;
}

export interface ErrorModel {
  kind: 'error';
  status: number;
  locale: string;
  title: string;
  description: string;
  /** The requested path, shown as text (escaped by React). */
  path: string;
  head: { title: string; robots: string };
  brand: { name: string; homeHref: string };
}
