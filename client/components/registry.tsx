import type { ComponentType } from 'react';
import type { ComponentEntry } from '../../common/content.ts';
import { footnoteSources } from '../page/footnotes.ts';
import { CitingComponent } from '../render/cite.tsx';
import { Faq } from './faq.tsx';
import { FooterLinks } from './footer-links.tsx';
import { Hero } from './hero.tsx';
import { LegalSection } from './legal-section.tsx';
import { ParallaxBanner } from './parallax-banner.tsx';
import { ProductFeatureList } from './product-feature-list.tsx';
import { ProductTeaserGrid } from './product-teaser-grid.tsx';
import { RichText } from './rich-text.tsx';
import type { ComponentProps } from './types.ts';

// biome-ignore lint/suspicious/noExplicitAny: each entry narrows its own entry type
type AnyComponent = ComponentType<ComponentProps<any>>;

/** Components by `_content_type_uid`. Adding a content type: one file here and one line below. */
export const registry: Record<string, AnyComponent> = {
  hero: Hero,
  rich_text: RichText,
  product_feature_list: ProductFeatureList,
  product_teaser_grid: ProductTeaserGrid,
  faq: Faq,
  parallax_banner: ParallaxBanner,
  legal_section_block: LegalSection,
  footer_links: FooterLinks,
};

/** Content types that render as islands, so the page knows before rendering which code it loads. */
export const ISLAND_COMPONENTS: Record<string, string> = {
  parallax_banner: 'parallax',
  // The feature list's price is live (client/components/price.tsx).
  product_feature_list: 'price',
};

export function ComponentList({
  components,
  zone,
  base,
  onUnknown,
}: {
  components: ComponentEntry[];
  zone: string;
  base: string;
  onUnknown?: (type: string) => void;
}) {
  return (
    <>
      {components.map((entry, i) => {
        const Component = registry[entry._content_type_uid];
        if (!Component) {
          onUnknown?.(entry._content_type_uid);
          return null;
        }
        return (
          <CitingComponent
            key={`${entry._content_type_uid}-${entry.uid}-${i}`}
            ids={footnoteSources(entry).map((s) => s.id)}
          >
            <Component entry={entry} path={`${base}.${zone}.${i}`} />
          </CitingComponent>
        );
      })}
    </>
  );
}
