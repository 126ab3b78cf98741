import type { ApplicationConfiguration, PageEntry, TemplateEntry } from '../../common/content.ts';
import { ICONS } from '../../common/icons.ts';
import type { HeaderProps } from '../../islands/header/Header.tsx';
import { ISLAND_COMPONENTS, registry } from '../components/registry.tsx';
import type { Translate } from '../i18n/messages.ts';
import { LAYOUTS } from '../layouts/layouts.ts';
import { buildBreadcrumbs } from './breadcrumbs.ts';
import { FootnoteCollection } from './footnotes.ts';
import { type Alternate, buildHead, pageHeading } from './head.ts';
import { placeLegalSection } from './legal.ts';
import { internalLink, type LinkBase } from './links.ts';
import type { PageModel, SwitcherLink } from './model.ts';
import { heroImage, homeJsonLd, productJsonLd } from './structured-data.ts';

export interface PageInput {
  page: PageEntry;
  /** null when the template could not be loaded: the page renders without template components. */
  template: TemplateEntry | null;
  templateType: string;
  appConfig: ApplicationConfiguration;
  locale: string;
  path: string;
  t: Translate;
  siteName: string;
  separator: string;
  canonicalUrl: string;
  /** The storefront's home page: it carries the brand's Organization and WebSite data. */
  home: boolean;
  /** The storefront's absolute base (no trailing slash): image and JSON-LD URLs are made absolute on it. */
  siteUrl: string;
  siteDescription?: string;
  twitterSite?: string;
  alternates: Alternate[];
  homeHref: string;
  /** How links written in content become links of this page. */
  links: LinkBase;
  languages: SwitcherLink[];
  countries: SwitcherLink[];
  preview: boolean;
  /** The live route renders in the minimal layout whatever the template says. */
  forceLayout?: 'minimal';
}

/** Pure page assembly: loaded entries in, the complete render model out (no I/O, no React). */
export function assemblePage(input: PageInput): PageModel {
  const { page, template, t, locale } = input;
  const layoutName = input.forceLayout ?? template?.layout ?? 'default';
  const layout = LAYOUTS[layoutName];
  // A layout without a footer renders no footer zone: its components are not on the page at all.
  const zones = {
    header: template?.header_components ?? [],
    body: template?.body_components ?? [],
    footer: layout.footer ? (template?.footer_components ?? []) : [],
  };
  const footnotes = new FootnoteCollection();
  // A component of an unknown type renders nothing, so it cites nothing: its notes are not listed.
  const rendered = [...zones.header, ...zones.body, ...zones.footer].filter((c) => registry[c._content_type_uid]);
  footnotes.register(rendered, { clear: true });
  const placed = placeLegalSection(zones, footnotes, t('legal.title'));

  const heading = pageHeading(page, input.path);
  const components = [...zones.header, ...zones.body];
  const image = heroImage(components, input.siteUrl);
  const product = productJsonLd(components, input.canonicalUrl, image);
  const jsonLd = input.home
    ? homeJsonLd(input.siteName, input.siteUrl, locale, `${input.siteUrl}${ICONS.png[1].src}`)
    : product
      ? [product]
      : [];
  const header = layout.header === 'island' ? headerProps(input) : null;
  const islands = new Set<string>();
  if (header) islands.add('header');
  for (const c of [...placed.header, ...placed.body, ...placed.footer]) {
    const island = ISLAND_COMPONENTS[c._content_type_uid];
    if (island) islands.add(island);
  }

  return {
    kind: 'page',
    locale,
    layout: layoutName,
    head: buildHead({
      page,
      path: input.path,
      locale,
      siteName: input.siteName,
      separator: input.separator,
      canonicalUrl: input.canonicalUrl,
      alternates: input.alternates,
      jsonLd,
      siteDescription: input.siteDescription,
      image,
      twitterSite: input.twitterSite,
    }),
    heading,
    breadcrumbs: buildBreadcrumbs({
      page,
      homeLabel: t('breadcrumbs.home'),
      homeHref: input.homeHref,
      links: input.links,
      title: heading,
    }),
    breadcrumbsTheme: {
      theme: template?.breadcrumbs_theme?.theme || 'light',
      background: template?.breadcrumbs_theme?.background_color || 'backdrop',
    },
    zones: placed,
    cslpBase: `${input.templateType}.${template?.uid ?? ''}.${locale}`,
    headingCslp: `page.${page.uid}.${locale}.${page.page_title ? 'page_title' : 'title'}`,
    header,
    brand: { name: input.siteName, homeHref: input.homeHref },
    languages: input.languages,
    countries: input.countries,
    islands: [...islands],
    footnotes,
    preview: input.preview,
  };
}

/** The header exists only when dhfIsEnabled is true and navigation.header is given. */
function headerProps(input: PageInput): HeaderProps | null {
  const { appConfig, t } = input;
  const nav = appConfig.navigation.header;
  if (!appConfig.globals.dhfIsEnabled || !nav) return null;
  return {
    title: nav.title,
    homeHref: input.homeHref,
    links: nav.links.flatMap((l) => {
      const url = internalLink(l.url, input.links);
      return url ? [{ title: l.title, url }] : [];
    }),
    currentPath: input.path,
    labels: {
      home: t('header.homeLink', { brand: nav.title }),
      navigation: t('header.navigationLabel'),
      menu: t('header.menu'),
    },
  };
}
