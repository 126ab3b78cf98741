import type { ComponentEntry } from '../../common/content.ts';
import { contentFootnoteIds, isContentFootnote } from '../page/footnotes.ts';
import { Cite } from '../render/cite.tsx';
import { useRender } from '../render/context.ts';
import { Price } from './price.tsx';
import type { ComponentProps } from './types.ts';

interface ContentItem {
  type: string;
  titleText?: string;
  shortText?: string;
  [field: string]: unknown;
}

interface FeatureListEntry extends ComponentEntry {
  title: string;
  product: { id: string; name: string };
  price?: { amount: number; currency: string };
  pricingFootnotesContainer?: unknown;
  productFeatures?: ContentItem[];
  benefitGroups?: { title: string; contents: ContentItem[] }[];
  featuredBenefits?: ContentItem[];
}

/** Items that are themselves footnotes are cited where they stand, not listed as features. */
const listed = (items: ContentItem[] = []) => items.filter((item) => !isContentFootnote(item));
const citedInline = (items: ContentItem[] = []) => items.filter(isContentFootnote).map((item) => item.name as string);

function Item({ item, path, heading }: { item: ContentItem; path: string; heading: 'h3' | 'strong' }) {
  const { cslp } = useRender();
  const Heading = heading;
  return (
    <>
      <Heading {...cslp(`${path}.titleText`)}>
        {item.titleText}
        <Cite ids={contentFootnoteIds(item)} />
      </Heading>
      {item.shortText ? <p {...cslp(`${path}.shortText`)}>{item.shortText}</p> : null}
    </>
  );
}

export function ProductFeatureList({ entry, path }: ComponentProps<FeatureListEntry>) {
  const { cslp } = useRender();
  const features = entry.productFeatures ?? [];
  return (
    <section className="features" {...cslp(path)}>
      <div className="features-head">
        <h2 {...cslp(`${path}.title`)}>
          {entry.title}
          <Cite ids={citedInline(features)} />
        </h2>
        {entry.price ? (
          <Price
            price={entry.price}
            footnotes={entry.pricingFootnotesContainer}
            cslp={cslp(`${path}.price.amount`)}
            productId={entry.product.id}
          />
        ) : null}
      </div>
      <ul className="feature-grid">
        {features.map((item, i) =>
          isContentFootnote(item) ? null : (
            <li key={`${item.titleText}-${i}`}>
              <Item item={item} path={`${path}.productFeatures.${i}`} heading="h3" />
            </li>
          ),
        )}
      </ul>
      {entry.benefitGroups?.length ? (
        <div className="benefit-groups">
          {entry.benefitGroups.map((group, g) => (
            <div className="benefit-group" key={group.title}>
              <h3 {...cslp(`${path}.benefitGroups.${g}.title`)}>
                {group.title}
                <Cite ids={citedInline(group.contents)} />
              </h3>
              <ul>
                {group.contents.map((item, i) =>
                  isContentFootnote(item) ? null : (
                    <li key={`${item.titleText}-${i}`}>
                      <Item item={item} path={`${path}.benefitGroups.${g}.contents.${i}`} heading="strong" />
                    </li>
                  ),
                )}
              </ul>
            </div>
          ))}
        </div>
      ) : null}
      {listed(entry.featuredBenefits).length ? (
        <ul className="featured-benefits">
          <Cite ids={citedInline(entry.featuredBenefits)} />
          {(entry.featuredBenefits ?? []).map((item, i) =>
            isContentFootnote(item) ? null : (
              <li key={`${item.titleText}-${i}`}>
                <Item item={item} path={`${path}.featuredBenefits.${i}`} heading="strong" />
              </li>
            ),
          )}
        </ul>
      ) : null}
    </section>
  );
}
