import { useEffect, useState } from 'react';
import { pageClient } from '../client/page-client.ts';
import { useQuery } from '../client/use-query.ts';
import { LIVE_PRICE_QUERY, LIVE_PRICE_UPDATES } from './queries.ts';

export type AvailabilityKey = 'in_stock' | 'low_stock' | 'out_of_stock';
const AVAILABILITY_KEYS: readonly AvailabilityKey[] = ['in_stock', 'low_stock', 'out_of_stock'];

export interface LivePriceProps {
  productId: string;
  locale: string;
  /** The server-rendered price: what the page shows until the backend answers. */
  amount: number;
  formatted: string;
  /** The data endpoint; the embedded backend's `/graphql` when absent. */
  endpoint?: string;
  /** Translated on the server (islands never load message files). */
  labels: { lost: string; restored: string; availability: Record<AvailabilityKey, string> };
}

interface LiveProduct {
  id: string;
  price: { amount: number; formatted: string };
  availability: 'IN_STOCK' | 'LOW_STOCK' | 'OUT_OF_STOCK';
  version: number;
}

/** How long "up to date again" stays before the status line empties. */
const RESTORED_VISIBLE_MS = 5000;

/**
 * The live price. Renders the server's price, then asks the backend for the current one
 * and follows `productUpdated`. When the socket is lost it says so, and when it is back it says
 * that too and refetches, since changes made meanwhile were never pushed. The status line is a
 * polite live region present from the first render, so screen readers announce both messages.
 */
export default function LivePrice({ productId, locale, amount, formatted, endpoint, labels }: LivePriceProps) {
  const [client] = useState(() => () => pageClient(endpoint));
  const query = useQuery<{ product: LiveProduct | null }, { id: string; locale: string }>(client, LIVE_PRICE_QUERY, {
    id: productId,
    locale,
  });
  const [pushed, setPushed] = useState<LiveProduct | null>(null);
  const [connection, setConnection] = useState<'live' | 'lost' | 'restored'>('live');

  useEffect(() => {
    const data = client();
    const unsubscribe = data.subscribe<{ productUpdated: LiveProduct }>(
      { query: LIVE_PRICE_UPDATES, variables: { ids: [productId], locale } },
      {
        next: (result) => {
          if (result.data?.productUpdated) setPushed(result.data.productUpdated);
        },
        error: () => setConnection('lost'),
        complete: () => {},
      },
    );
    const unlisten = data.realtime.onStatus((status) => {
      if (status === 'lost') setConnection('lost');
      else if (status === 'connected') setConnection((c) => (c === 'lost' ? 'restored' : c));
    });
    return () => {
      unsubscribe();
      unlisten();
    };
  }, [client, productId, locale]);

  const { refetch } = query;
  useEffect(() => {
    if (connection !== 'restored') return;
    // Versions restart with the backend: after a gap, only a fresh answer is to be trusted.
    setPushed(null);
    refetch();
    const timer = setTimeout(() => setConnection('live'), RESTORED_VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [connection, refetch]);

  const fetched = query.data?.product ?? null;
  const live = pushed && (!fetched || pushed.version >= fetched.version) ? pushed : fetched;
  const availability = live?.availability.toLowerCase() as AvailabilityKey | undefined;
  const message = connection === 'lost' ? labels.lost : connection === 'restored' ? labels.restored : '';
  return (
    <>
      <data value={live?.price.amount ?? amount} data-version={live?.version}>
        {live?.price.formatted ?? formatted}
      </data>{' '}
      {/* Every label from the first render, stacked and only the current one shown: the space is the
          widest label's before the backend answers, so its answer moves nothing. The current one
          comes first: the first row is the one with a height (client/layouts/components.css). */}
      <span className="availability" data-availability={availability}>
        {[...(availability ? [availability] : []), ...AVAILABILITY_KEYS.filter((key) => key !== availability)].map(
          (key) => (
            <span key={key} data-current={key === availability ? '' : undefined}>
              {labels.availability[key]}
            </span>
          ),
        )}
      </span>{' '}
      <span className="price-live" role="status" data-connection={connection}>
        {message}
      </span>
    </>
  );
}
