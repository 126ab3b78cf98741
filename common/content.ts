/**
 * The entity shapes of the content service.
 * The embedded store validates files against the schemas in server/content/schemas.ts, which are
 * written to produce exactly these types.
 */

export interface Link {
  url: string;
  url_type: 'internal' | 'external';
}

export interface TaxonomySegment {
  title: string;
  /** The path segment this taxonomy level contributes to the canonical URL. */
  segment: string;
  exclude_from_breadcrumbs: boolean;
  link: Link[];
}

export interface PageEntry {
  uid: string;
  /** Numeric page id, 1 to 10 digits, as a string. */
  uuid: string;
  locale: string;
  title: string;
  page_title?: string;
  slug: string;
  template: { _content_type_uid: string; uid: string }[];
  url_taxonomy: { url_taxonomy_segments: TaxonomySegment[] }[];
  seo?: {
    meta_title?: string;
    meta_description?: string;
    enable_search_indexing?: boolean;
    canonical_url?: string;
  };
}

/** Any component: its type, its uid, and its own fields. */
export interface ComponentEntry {
  _content_type_uid: string;
  uid: string;
  [field: string]: unknown;
}

export type LayoutName = 'default' | 'minimal' | 'base-logo-only' | 'base-minimal' | 'base-static' | 'base';

export interface TemplateEntry {
  uid: string;
  title?: string;
  layout?: LayoutName;
  breadcrumbs_theme?: { theme?: string; background_color?: string };
  header_components: ComponentEntry[];
  body_components: ComponentEntry[];
  footer_components: ComponentEntry[];
}

export interface NavigationHeader {
  title: string;
  links: { title: string; url: string }[];
}

export interface ApplicationConfiguration {
  globals: { dhfIsEnabled: boolean };
  navigation: { header?: NavigationHeader };
  /**
   * Set by the source, never read from content: this answer was made for the visitor's cookie, so
   * nothing built from it may be shared with another visitor.
   */
  personal?: true;
}

export type FootnoteType = 'pricing' | 'content';

export interface Footnote {
  id: string;
  /** Inline HTML from the CMS; sanitised before it reaches a page. */
  description: string;
  type: FootnoteType;
  anchor: string;
  /** 1-based, by first appearance in page order. */
  index: number;
}

export interface LegalSectionBlock extends ComponentEntry {
  _content_type_uid: 'legal_section_block';
  title: string;
  footnotes: Footnote[];
  sectionId: string;
  theming: { background: string; theme: string };
}
