import LivePrice, { type LivePriceProps } from '../../islands/price/Price.tsx';
import { pricingFootnotes } from '../page/footnotes.ts';
import { Cite } from '../render/cite.tsx';
import { useRender } from '../render/context.ts';
import { Island } from '../render/island.tsx';

/**
 * The live price hydrates once it is on screen (decision 0205): until then it shows the server's
 * price, which nobody is looking at, and a phone whose price is below the fold loads no React DOM
 * while the page loads. A price in view hydrates right after the largest paint.
 */
const ON_SCREEN = { visible: '0px' } as const;

/**
 * A price in the storefront's currency with the citations of its pricing footnotes.
 *
 * With `productId` the amount is the live price island: the same server-rendered text,
 * then kept current over the data backend's subscription. Only a product's own feature list asks
 * for it; teaser grids stay static, so a page without a feature list loads no price JavaScript.
 * In preview (a `data-cslp` tag) the price stays static: the editor is changing the content value,
 * and a live backend price would hide the edit.
 */
export function Price({
  price,
  footnotes,
  cslp,
  productId,
}: {
  price: { amount: number; currency: string };
  footnotes?: unknown;
  cslp?: { 'data-cslp'?: string };
  productId?: string;
}) {
  const { formatPrice, t, locale, dataEndpoint } = useRender();
  const formatted = formatPrice(price.amount, price.currency);
  const live: LivePriceProps | null =
    productId && !cslp?.['data-cslp']
      ? {
          productId,
          locale,
          ...(dataEndpoint ? { endpoint: dataEndpoint } : {}),
          amount: price.amount,
          formatted,
          labels: {
            lost: t('price.live.lost'),
            restored: t('price.live.restored'),
            availability: {
              in_stock: t('price.availability', { status: 'in_stock' }),
              low_stock: t('price.availability', { status: 'low_stock' }),
              out_of_stock: t('price.availability', { status: 'out_of_stock' }),
            },
          },
        }
      : null;
  return (
    <p className="price">
      <span className="visually-hidden">{t('price.label')}: </span>
      {live ? (
        <Island name="price" component={LivePrice} props={live} strategy={ON_SCREEN} />
      ) : (
        <data value={price.amount} {...cslp}>
          {formatted}
        </data>
      )}
      <Cite ids={pricingFootnotes(footnotes).map((f) => f.code)} />
    </p>
  );
}
