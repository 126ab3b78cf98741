import type { ComponentEntry } from '../../common/content.ts';
import { useRender } from '../render/context.ts';
import { Image, type ImageField } from './image.tsx';
import { Price } from './price.tsx';
import type { ComponentProps } from './types.ts';

interface TeaserGridEntry extends ComponentEntry {
  title: string;
  products: {
    id: string;
    name: string;
    url: string;
    image?: ImageField;
    price?: { amount: number; currency: string };
    pricingFootnotesContainer?: unknown;
  }[];
}

/** Same-site paths only: a teaser never links off the storefront or to a script URL. */
const safePath = (url: string) =>
  url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\') ? url : undefined;

export function ProductTeaserGrid({ entry, path }: ComponentProps<TeaserGridEntry>) {
  const { cslp } = useRender();
  return (
    <section className="teasers" {...cslp(path)}>
      <h2 {...cslp(`${path}.title`)}>{entry.title}</h2>
      <ul className="teaser-grid">
        {entry.products.map((product, i) => (
          <li className="teaser" key={product.id}>
            {product.image ? (
              <Image
                image={product.image}
                sizes="(min-width: 960px) 25vw, (min-width: 600px) 50vw, 100vw"
                cslp={cslp(`${path}.products.${i}.image`)}
              />
            ) : null}
            <h3>
              <a className="teaser-link" href={safePath(product.url)} {...cslp(`${path}.products.${i}.name`)}>
                {product.name}
              </a>
            </h3>
            {product.price ? (
              <Price
                price={product.price}
                footnotes={product.pricingFootnotesContainer}
                cslp={cslp(`${path}.products.${i}.price.amount`)}
              />
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
