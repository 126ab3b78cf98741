/**
 * Writes the demo content store from one text file per locale in
 * content-src/. The structure (pages, templates, components, footnote sources) is the same in
 * every locale; the words, slugs and prices are the locale's own; the demo's photographs are
 * rendered from its illustrations. Run: npx tsx scripts/generate-content.ts
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { languageOf } from '../common/locales.ts';
import { PHOTOGRAPHS, renderPhotos } from './render-photos.ts';

interface Faq {
  q: string;
  a: string;
}
interface Item {
  title: string;
  text: string;
}
interface ProductText {
  slug: string;
  name: string;
  meta_description: string;
  headline: string;
  subline: string;
  image_alt: string;
  features_title: string;
  features: Item[];
  legal: string;
  patent: string;
  benefit_groups: { title: string; items: Item[] }[];
  benefit_legal: string;
  featured_benefits: Item[];
  faq: Faq[];
}
interface CategoryText {
  segment: string;
  slug: string;
  title: string;
  meta_description: string;
  hero_headline: string;
  hero_subline: string;
  hero_image_alt: string;
  intro_title: string;
  intro_text: string;
  teaser_title: string;
}
interface LocaleText {
  brand: string;
  navigation: Record<'kitchen' | 'cleaning' | 'service' | 'warranty', string>;
  home: {
    title: string;
    page_title: string;
    meta_title: string;
    meta_description: string;
    hero_headline: string;
    hero_subline: string;
    hero_cta: string;
    hero_image_alt: string;
    intro_title: string;
    intro_text: string;
    teaser_title: string;
    parallax_headline: string;
    parallax_text: string;
    parallax_image_alt: string;
    faq_title: string;
    faq: Faq[];
  };
  categories: Record<'kitchen' | 'cleaning', CategoryText>;
  pricing: Record<'rrp' | 'delivery' | 'cashback', string>;
  products: Record<ProductKey, ProductText>;
  warranty: {
    segment: string;
    slug: string;
    title: string;
    meta_description: string;
    intro_title: string;
    intro_text: string;
    legal_title: string;
    notes: string[];
    teaser_title: string;
  };
  service: {
    section_segment: string;
    section_title: string;
    segment: string;
    section_link_title: string;
    slug: string;
    title: string;
    meta_description: string;
    intro_title: string;
    intro_text: string;
    faq_title: string;
    faq: Faq[];
  };
  footer: Record<'products' | 'help' | 'company' | 'about' | 'sustainability' | 'contact', string>;
  /** The accessibility statement (European Accessibility Act): conformance, feedback, enforcement. */
  accessibility: {
    slug: string;
    title: string;
    meta_description: string;
    intro_title: string;
    intro: string;
    sections: Item[];
  };
  /** The cashback campaign's landing page and its terms. */
  campaign: { slug: string; title: string; terms_slug: string; terms_title: string };
  /** Help shown inside the Halden app's web view. */
  app_help: { slug: string; title: string };
}
type ProductKey = 'dishwasher' | 'oven' | 'washing_machine' | 'vacuum';

interface SiteEntry {
  host: string;
  locales: string[];
  defaultLocale: string;
  currency: string;
}

/** Page ids are shared by every locale, so hreflang and switchers can find the same page. */
const PAGE_ID = {
  home: '125',
  kitchen: '200',
  cleaning: '300',
  dishwasher: '4711',
  oven: '4712',
  washing_machine: '5810',
  vacuum: '6020',
  warranty: '7000',
  service: '8000',
  accessibility: '9000',
  campaign: '9500',
  campaign_terms: '9501',
  app_help: '9600',
} as const;

/** `mpn`: the manufacturer's part number, the same in every country. */
const PRODUCTS: { key: ProductKey; category: 'kitchen' | 'cleaning'; eur: number; image: string; mpn: string }[] = [
  { key: 'dishwasher', category: 'kitchen', eur: 899, image: 'dishwasher', mpn: 'HDW-AS60-14' },
  { key: 'oven', category: 'kitchen', eur: 1099, image: 'oven', mpn: 'HOV-PB71-A' },
  { key: 'washing_machine', category: 'cleaning', eur: 749, image: 'washing-machine', mpn: 'HWM-EC90-1400' },
  { key: 'vacuum', category: 'cleaning', eur: 399, image: 'vacuum', mpn: 'HVC-QC25-B' },
];

/**
 * A demo GTIN-13 for a page id: the restricted-circulation prefix 20 (never a real company's
 * number), the id, and the standard check digit.
 */
function gtin13(id: string): string {
  const body = `20${id.padStart(10, '0')}`;
  const sum = [...body].reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return body + String((10 - (sum % 10)) % 10);
}

/** Demo exchange rates from EUR, and the step prices are rounded up to (then minus one unit). */
const RATES: Record<string, [rate: number, step: number]> = {
  EUR: [1, 10],
  CHF: [0.95, 10],
  GBP: [0.86, 10],
  USD: [1.08, 10],
  DKK: [7.46, 100],
  SEK: [11.2, 100],
  NOK: [11.6, 100],
  PLN: [4.3, 10],
  CZK: [25, 100],
  HUF: [390, 1000],
  RON: [5, 10],
};

function price(eur: number, currency: string): { amount: number; currency: string } {
  const [rate, step] = RATES[currency] ?? [1, 10];
  return { amount: Math.ceil((eur * rate) / step) * step - 1, currency };
}

/** A demo image: the raster photograph rendered from the illustration when there is one (render-photos.ts). */
function image(name: string, alt: string, width = 1600, height = 900) {
  const photo = (PHOTOGRAPHS as readonly string[]).includes(name);
  return { url: `/images/${name}.${photo ? 'jpg' : 'svg'}`, alt, width, height };
}

function main(): void {
  const root = process.cwd();
  const sites = JSON.parse(readFileSync(join(root, 'config/sites.json'), 'utf8')) as { sites: SiteEntry[] };
  const missing: string[] = [];
  for (const site of sites.sites) {
    for (const locale of site.locales) {
      const source = join(root, 'content-src', `${locale}.json`);
      if (!existsSync(source)) {
        missing.push(locale);
        continue;
      }
      const text = JSON.parse(readFileSync(source, 'utf8')) as LocaleText;
      const prefix = site.locales.length > 1 ? `/${languageOf(locale)}` : '';
      writeLocale(join(root, 'content', locale), locale, prefix, site, text);
    }
  }
  if (missing.length > 0) {
    console.error(
      `No content source for ${missing.join(', ')} (content-src/{locale}.json); those locales were not written.`,
    );
    process.exitCode = 1;
  }
}

function writeLocale(dir: string, locale: string, prefix: string, site: SiteEntry, t: LocaleText): void {
  rmSync(dir, { recursive: true, force: true });
  const write = (path: string, value: unknown) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), `${JSON.stringify(value, null, 2)}\n`);
  };
  const catPath = (c: 'kitchen' | 'cleaning') => `/cs/${t.categories[c].slug}-${PAGE_ID[c]}`;
  const productPath = (p: (typeof PRODUCTS)[number]) =>
    `/cs/${t.categories[p.category].segment}/${t.products[p.key].slug}-${PAGE_ID[p.key]}`;
  const servicePath = `/cs/${t.service.section_segment}/${t.service.segment}/${t.service.slug}-${PAGE_ID.service}`;
  const warrantyPath = `/cs/${t.warranty.segment}/${t.warranty.slug}-${PAGE_ID.warranty}`;
  const accessibilityPath = `/cs/${t.accessibility.slug}-${PAGE_ID.accessibility}`;
  const campaignTermsPath = `/cs/${t.campaign.terms_slug}-${PAGE_ID.campaign_terms}`;

  /** The storefront's country, ISO 3166-1 (the locale's region). */
  const country = locale.slice(3);
  const rrp = { code: 'RRP', formattedFootnote: t.pricing.rrp };
  const delivery = { code: 'DELIVERY', formattedFootnote: t.pricing.delivery };
  const cashback = { code: 'CASHBACK', formattedFootnote: t.pricing.cashback };

  const teaser = (uid: string, title: string, items: (typeof PRODUCTS)[number][]) => ({
    _content_type_uid: 'product_teaser_grid',
    uid,
    title,
    products: items.map((p) => ({
      id: PAGE_ID[p.key],
      name: t.products[p.key].name,
      url: prefix + productPath(p),
      image: image(p.image, t.products[p.key].image_alt, 800, 800),
      price: price(p.eur, site.currency),
      pricingFootnotesContainer: { pricingFootnotes: [rrp] },
    })),
  });
  const footer = {
    _content_type_uid: 'footer_links',
    uid: 'footer',
    groups: [
      {
        title: t.footer.products,
        links: [
          { title: t.navigation.kitchen, url: prefix + catPath('kitchen') },
          { title: t.navigation.cleaning, url: prefix + catPath('cleaning') },
        ],
      },
      {
        title: t.footer.help,
        links: [
          { title: t.service.title, url: prefix + servicePath },
          { title: t.warranty.title, url: prefix + warrantyPath },
        ],
      },
      {
        title: t.footer.company,
        links: [
          { title: t.footer.about, url: prefix || '/' },
          { title: t.footer.sustainability, url: prefix || '/' },
          { title: t.footer.contact, url: prefix + servicePath },
          { title: t.accessibility.title, url: prefix + accessibilityPath },
        ],
      },
    ],
  };
  const richText = (uid: string, title: string, html: string) => ({
    _content_type_uid: 'rich_text',
    uid,
    title,
    text: html,
  });
  const faq = (uid: string, title: string, items: Faq[]) => ({
    _content_type_uid: 'faq',
    uid,
    title,
    items: items.map((i) => ({ question: i.q, answer: i.a })),
  });
  const hero = (
    uid: string,
    headline: string,
    subline: string,
    img: ReturnType<typeof image>,
    cta?: { label: string; url: string },
  ) => ({
    _content_type_uid: 'hero',
    uid,
    headline,
    subline,
    image: img,
    ...(cta ? { cta } : {}),
  });
  const parallax = {
    _content_type_uid: 'parallax_banner',
    uid: 'parallax-quiet',
    headline: t.home.parallax_headline,
    text: t.home.parallax_text,
    image: image('parallax', t.home.parallax_image_alt, 1920, 1080),
  };
  const template = (uid: string, body: unknown[], extra: Record<string, unknown> = {}) => ({
    uid,
    title: uid,
    layout: 'default',
    breadcrumbs_theme: { theme: 'light', background_color: 'backdrop' },
    header_components: [],
    body_components: body,
    footer_components: [footer],
    ...extra,
  });
  const page = (
    uuid: string,
    title: string,
    slug: string,
    templateUid: string,
    segments: unknown[],
    seo: Record<string, unknown>,
    pageTitle?: string,
  ) => ({
    uid: `page-${uuid}`,
    uuid,
    locale,
    title,
    ...(pageTitle ? { page_title: pageTitle } : {}),
    slug,
    template: [{ _content_type_uid: 'page_template', uid: templateUid }],
    url_taxonomy: [{ url_taxonomy_segments: segments }],
    seo: { enable_search_indexing: true, ...seo },
  });
  const segment = (title: string, seg: string, url: string, exclude = false) => ({
    title,
    segment: seg,
    exclude_from_breadcrumbs: exclude,
    link: [{ url, url_type: 'internal' }],
  });

  // Home (125)
  write(
    `pages/${PAGE_ID.home}.json`,
    page(
      PAGE_ID.home,
      t.home.title,
      'home',
      'home',
      [],
      { meta_title: t.home.meta_title, meta_description: t.home.meta_description },
      t.home.page_title,
    ),
  );
  write(
    'page_template/home.json',
    template('home', [
      hero('hero-home', t.home.hero_headline, t.home.hero_subline, image('hero-home', t.home.hero_image_alt), {
        label: t.home.hero_cta,
        url: prefix + catPath('kitchen'),
      }),
      richText('intro-home', t.home.intro_title, t.home.intro_text),
      teaser('teaser-home', t.home.teaser_title, PRODUCTS),
      parallax,
      faq('faq-home', t.home.faq_title, t.home.faq),
    ]),
  );

  // Categories
  for (const c of ['kitchen', 'cleaning'] as const) {
    const ct = t.categories[c];
    write(
      `pages/${PAGE_ID[c]}.json`,
      page(PAGE_ID[c], ct.title, ct.slug, c, [], { meta_description: ct.meta_description }),
    );
    write(
      `page_template/${c}.json`,
      template(c, [
        hero(`hero-${c}`, ct.hero_headline, ct.hero_subline, image(`hero-${c}`, ct.hero_image_alt)),
        richText(`intro-${c}`, ct.intro_title, ct.intro_text),
        teaser(
          `teaser-${c}`,
          ct.teaser_title,
          PRODUCTS.filter((p) => p.category === c),
        ),
      ]),
    );
  }

  // Products
  for (const p of PRODUCTS) {
    const pt = t.products[p.key];
    const ct = t.categories[p.category];
    const id = PAGE_ID[p.key];
    write(
      `pages/${id}.json`,
      page(id, pt.name, pt.slug, p.key, [segment(t.navigation[p.category], ct.segment, catPath(p.category))], {
        meta_description: pt.meta_description,
      }),
    );
    const pricing = p.key === 'dishwasher' ? [rrp, delivery, cashback] : [rrp, delivery];
    const features = pt.features.map((f, i) => ({
      type: 'FEATURE',
      titleText: f.title,
      shortText: f.text,
      ...(i === 0
        ? { legalInformation: [{ type: 'LEGAL_INFORMATION', name: `${p.key}-legal-measurement`, longText: pt.legal }] }
        : {}),
      ...(i === 1
        ? { legalInformation: [{ type: 'PATENT_INFORMATION', name: `${p.key}-patent`, longText: pt.patent }] }
        : {}),
    }));
    const benefitGroups = pt.benefit_groups.map((g, gi) => ({
      title: g.title,
      contents: [
        ...g.items.map((i) => ({ type: 'BENEFIT', titleText: i.title, shortText: i.text })),
        ...(gi === 1
          ? [{ type: 'LEGAL_INFORMATION', name: `${p.key}-benefit-legal`, shortText: pt.benefit_legal }]
          : []),
      ],
    }));
    const related = PRODUCTS.filter((o) => o.key !== p.key).slice(0, 3);
    const body: unknown[] = [
      hero(`hero-${p.key}`, pt.headline, pt.subline, image(p.image, pt.image_alt, 1200, 900)),
      {
        _content_type_uid: 'product_feature_list',
        uid: `features-${p.key}`,
        title: pt.features_title,
        product: { id, name: pt.name, brand: t.brand, gtin: gtin13(id), mpn: p.mpn },
        price: price(p.eur, site.currency),
        // Free delivery within five working days (the DELIVERY footnote); returns within 30 days.
        shipping: {
          rate: { amount: 0, currency: site.currency },
          country,
          handlingDays: { min: 0, max: 1 },
          transitDays: { min: 1, max: 4 },
        },
        returnPolicy: { country, days: 30, method: 'ReturnByMail', fees: 'FreeReturn' },
        pricingFootnotesContainer: { pricingFootnotes: pricing },
        productFeatures: features,
        benefitGroups,
        featuredBenefits: pt.featured_benefits.map((b) => ({ type: 'BENEFIT', titleText: b.title, shortText: b.text })),
      },
      ...(p.key === 'dishwasher' ? [parallax] : []),
      faq(`faq-${p.key}`, t.home.faq_title, pt.faq),
      teaser(`teaser-${p.key}`, t.home.teaser_title, related),
    ];
    write(`page_template/${p.key}.json`, template(p.key, body));
  }

  // Warranty (7000): a page with its own legal section block
  write(
    `pages/${PAGE_ID.warranty}.json`,
    page(
      PAGE_ID.warranty,
      t.warranty.title,
      t.warranty.slug,
      'warranty',
      [segment(t.navigation.service, t.warranty.segment, servicePath)],
      { meta_description: t.warranty.meta_description },
    ),
  );
  write(
    'page_template/warranty.json',
    // Terms to read: the header without script is enough (the six layouts: client/layouts/layouts.ts).
    template(
      'warranty',
      [
        richText('intro-warranty', t.warranty.intro_title, t.warranty.intro_text),
        teaser(
          'teaser-warranty',
          t.warranty.teaser_title,
          PRODUCTS.filter((p) => p.key !== 'oven'),
        ),
        {
          _content_type_uid: 'legal_section_block',
          uid: 'legal-warranty',
          title: t.warranty.legal_title,
          sectionId: 'guarantee-terms',
          theming: { background: 'backdrop', theme: 'dark' },
          footnotes: t.warranty.notes.map((n, i) => ({
            id: `GUARANTEE-${i + 1}`,
            description: n,
            type: 'content',
            anchor: `guarantee-${i + 1}`,
          })),
        },
      ],
      { layout: 'base-static' },
    ),
  );

  // Service (8000): its first taxonomy level is excluded from breadcrumbs
  write(
    `pages/${PAGE_ID.service}.json`,
    page(
      PAGE_ID.service,
      t.service.title,
      t.service.slug,
      'service',
      [
        segment(t.service.section_title, t.service.section_segment, servicePath, true),
        segment(t.service.section_link_title, t.service.segment, servicePath),
      ],
      { meta_description: t.service.meta_description },
    ),
  );
  write(
    'page_template/service.json',
    template('service', [
      richText('intro-service', t.service.intro_title, t.service.intro_text),
      faq('faq-service', t.service.faq_title, t.service.faq),
    ]),
  );

  // Accessibility statement (9000): linked from every footer; off the taxonomy, so no breadcrumbs.
  const a11y = t.accessibility;
  write(
    `pages/${PAGE_ID.accessibility}.json`,
    page(PAGE_ID.accessibility, a11y.title, a11y.slug, 'accessibility', [], {
      meta_description: a11y.meta_description,
    }),
  );
  write(
    'page_template/accessibility.json',
    template(
      'accessibility',
      [
        richText('intro-accessibility', a11y.intro_title, a11y.intro),
        ...a11y.sections.map((section, i) => richText(`accessibility-${i + 1}`, section.title, section.text)),
      ],
      { layout: 'base' },
    ),
  );

  // Cashback campaign (9500): a landing page with the brand and nothing to lead away from it.
  const dishwasher = PRODUCTS[0] as (typeof PRODUCTS)[number];
  write(
    `pages/${PAGE_ID.campaign}.json`,
    page(PAGE_ID.campaign, t.campaign.title, t.campaign.slug, 'campaign', [], {
      meta_description: t.products.dishwasher.meta_description,
    }),
  );
  write(
    'page_template/campaign.json',
    template(
      'campaign',
      [
        hero(
          'hero-campaign',
          t.campaign.title,
          t.products.dishwasher.subline,
          image(dishwasher.image, t.products.dishwasher.image_alt, 1200, 900),
        ),
        richText(
          'campaign-offer',
          t.products.dishwasher.headline,
          `<p>${t.pricing.cashback}</p><p><a href="${prefix + campaignTermsPath}">${t.campaign.terms_title}</a></p>`,
        ),
        teaser('teaser-campaign', t.home.teaser_title, [dishwasher]),
      ],
      { layout: 'base-logo-only' },
    ),
  );
  // Its terms (9501): no header to leave by, the footer's legal links kept.
  write(
    `pages/${PAGE_ID.campaign_terms}.json`,
    page(PAGE_ID.campaign_terms, t.campaign.terms_title, t.campaign.terms_slug, 'campaign_terms', [], {}),
  );
  write(
    'page_template/campaign_terms.json',
    template(
      'campaign_terms',
      [richText('campaign-terms', t.products.dishwasher.name, `<p>${t.pricing.cashback}</p><p>${t.pricing.rrp}</p>`)],
      { layout: 'base-minimal' },
    ),
  );

  // Help in the app (9600): shown in the app's web view, so no chrome at all, and not indexed.
  write(`pages/${PAGE_ID.app_help}.json`, {
    ...page(PAGE_ID.app_help, t.app_help.title, t.app_help.slug, 'app_help', [], {}),
    seo: { enable_search_indexing: false },
  });
  write(
    'page_template/app_help.json',
    template('app_help', [faq('faq-app-help', t.service.faq_title, t.service.faq)], { layout: 'minimal' }),
  );

  write('_applicationConfiguration.json', {
    // One storefront shows the header-less variant: Ireland.
    globals: { dhfIsEnabled: locale !== 'en-IE' },
    navigation: {
      header: {
        title: t.brand,
        links: [
          { title: t.navigation.kitchen, url: prefix + catPath('kitchen') },
          { title: t.navigation.cleaning, url: prefix + catPath('cleaning') },
          { title: t.navigation.service, url: prefix + servicePath },
          { title: t.navigation.warranty, url: prefix + warrantyPath },
        ],
      },
    },
  });
}

main();
await renderPhotos(join(process.cwd(), 'public/images'));
