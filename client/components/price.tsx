import { pricingFootnotes } from '../page/footnotes.ts';
import { Cite } from '../render/cite.tsx';
import { useRender } from '../render/context.ts';

/** A price in the storefront's currency with the citations of its pricing footnotes. */
export function Price({
  price,
  footnotes,
  cslp,
}: {
  price: { amount: number; currency: string };
  footnotes?: unknown;
  cslp?: { 'data-cslp'?: string };
}) {
  const { formatPrice, t } = useRender();
  return (
    <p className="price">
      <span className="visually-hidden">{t('price.label')}: </span>
      <data value={price.amount} {...cslp}>
        {formatPrice(price.amount, price.currency)}
      </data>
      <Cite ids={pricingFootnotes(footnotes).map((f) => f.code)} />
    </p>
  );
}
