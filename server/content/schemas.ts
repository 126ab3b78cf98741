import { type TSchema, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { Problem } from '../errors.ts';

/**
 * One schema per content type of the embedded store.
 * Additional fields are allowed: the CMS adds system fields we do not read.
 */

const Text = Type.String();
const Link = Type.Object({
  url: Type.String(),
  url_type: Type.Union([Type.Literal('internal'), Type.Literal('external')]),
});
const Image = Type.Object({
  url: Type.String({ minLength: 1 }),
  alt: Type.String(),
  width: Type.Integer({ minimum: 1 }),
  height: Type.Integer({ minimum: 1 }),
});
const Price = Type.Object({ amount: Type.Number({ minimum: 0 }), currency: Type.String({ pattern: '^[A-Z]{3}$' }) });
const PricingFootnotes = Type.Object({
  pricingFootnotes: Type.Array(Type.Object({ code: Type.String({ minLength: 1 }), formattedFootnote: Text })),
});
const Footnote = Type.Object({
  id: Type.String({ minLength: 1 }),
  description: Text,
  type: Type.Union([Type.Literal('pricing'), Type.Literal('content')]),
  anchor: Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_-]*$' }),
});
const ContentObject = Type.Object({ type: Type.String() });

/**
 * A well-formed page, as editor tools (drafts, workbench) check what they write. Pages are read
 * tolerantly (tolerant.ts): every field has a fallback, and the id comes from the URL and file name.
 */
export const PageSchema = Type.Object({
  uid: Type.Optional(Type.String({ minLength: 1 })),
  uuid: Type.Optional(Type.String({ pattern: '^\\d{1,10}$' })),
  locale: Type.Optional(Type.String()),
  title: Type.Optional(Text),
  page_title: Type.Optional(Text),
  slug: Type.Optional(Type.String({ pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' })),
  template: Type.Optional(
    Type.Array(Type.Object({ _content_type_uid: Type.String({ minLength: 1 }), uid: Type.String({ minLength: 1 }) })),
  ),
  url_taxonomy: Type.Optional(
    Type.Array(
      Type.Object({
        url_taxonomy_segments: Type.Array(
          Type.Object({
            title: Text,
            segment: Type.String({ pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' }),
            exclude_from_breadcrumbs: Type.Boolean(),
            link: Type.Array(Link),
          }),
        ),
      }),
    ),
  ),
  seo: Type.Optional(
    Type.Object({
      meta_title: Type.Optional(Text),
      meta_description: Type.Optional(Text),
      enable_search_indexing: Type.Optional(Type.Boolean()),
      canonical_url: Type.Optional(Text),
    }),
  ),
});

const component = <T extends Record<string, TSchema>>(uid: string, fields: T) =>
  Type.Object({ _content_type_uid: Type.Literal(uid), uid: Type.String({ minLength: 1 }), ...fields });

/** Known component types; an unknown `_content_type_uid` only needs a uid (it renders nothing). */
export const ComponentSchemas: Record<string, TSchema> = {
  hero: component('hero', {
    headline: Text,
    subline: Type.Optional(Text),
    image: Type.Optional(Image),
    cta: Type.Optional(Type.Object({ label: Text, url: Type.String() })),
  }),
  rich_text: component('rich_text', { title: Type.Optional(Text), text: Text }),
  product_feature_list: component('product_feature_list', {
    title: Text,
    product: Type.Object({ id: Type.String(), name: Text }),
    price: Type.Optional(Price),
    pricingFootnotesContainer: Type.Optional(PricingFootnotes),
    productFeatures: Type.Optional(Type.Array(ContentObject)),
    featuredBenefits: Type.Optional(Type.Array(ContentObject)),
    benefitGroups: Type.Optional(Type.Array(Type.Object({ title: Text, contents: Type.Array(ContentObject) }))),
  }),
  product_teaser_grid: component('product_teaser_grid', {
    title: Text,
    products: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Text,
        url: Type.String(),
        image: Type.Optional(Image),
        price: Type.Optional(Price),
        pricingFootnotesContainer: Type.Optional(PricingFootnotes),
      }),
    ),
  }),
  faq: component('faq', { title: Text, items: Type.Array(Type.Object({ question: Text, answer: Text })) }),
  parallax_banner: component('parallax_banner', { headline: Text, text: Type.Optional(Text), image: Image }),
  legal_section_block: component('legal_section_block', {
    title: Text,
    sectionId: Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_-]*$' }),
    theming: Type.Object({ background: Type.String(), theme: Type.String() }),
    footnotes: Type.Array(Footnote),
  }),
  footer_links: component('footer_links', {
    groups: Type.Array(
      Type.Object({ title: Text, links: Type.Array(Type.Object({ title: Text, url: Type.String() })) }),
    ),
  }),
};

const AnyComponent = Type.Object({
  _content_type_uid: Type.String({ minLength: 1 }),
  uid: Type.String({ minLength: 1 }),
});

export const TemplateSchema = Type.Object({
  uid: Type.String({ minLength: 1 }),
  layout: Type.Optional(
    Type.Union(
      ['default', 'minimal', 'base-logo-only', 'base-minimal', 'base-static', 'base'].map((l) => Type.Literal(l)),
    ),
  ),
  breadcrumbs_theme: Type.Optional(
    Type.Object({ theme: Type.Optional(Type.String()), background_color: Type.Optional(Type.String()) }),
  ),
  header_components: Type.Array(AnyComponent),
  body_components: Type.Array(AnyComponent),
  footer_components: Type.Array(AnyComponent),
});

/** The first problem with `value` (its path as `$.path.to.field`), or null when it is valid. */
export function firstProblem(schema: TSchema, value: unknown, base = '$'): Problem | null {
  const error = Value.Errors(schema, value).First();
  if (!error) return null;
  const path = error.path
    .split('/')
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join('');
  return { path: `${base}${path}`, message: error.message };
}

/** Template and its inline components: the template shape, then each known component's own schema. */
export function templateProblem(value: unknown): Problem | null {
  const problem = firstProblem(TemplateSchema, value);
  if (problem) return problem;
  const template = value as Record<string, { _content_type_uid: string }[]>;
  for (const zone of ['header_components', 'body_components', 'footer_components']) {
    for (const [i, item] of (template[zone] ?? []).entries()) {
      const schema = ComponentSchemas[item._content_type_uid];
      const found = schema && firstProblem(schema, item, `$.${zone}[${i}]`);
      if (found) return found;
    }
  }
  return null;
}
