import t from 'tap';
import { formatPrice } from './context.ts';

/** Formatters are kept per locale and currency; whole and fractional amounts must not share one. */
t.test('a whole amount and a fractional one in the same locale and currency', async (t) => {
  const rows: [string, number, string, RegExp][] = [
    ['en-GB', 779, 'GBP', /^£779$/],
    ['en-GB', 779.5, 'GBP', /^£779\.50$/],
    ['en-GB', 12, 'GBP', /^£12$/],
    ['de-DE', 1299.99, 'EUR', /^1\.299,99\s€$/],
    ['de-DE', 1299, 'EUR', /^1\.299\s€$/],
  ];
  for (const [locale, amount, currency, expected] of rows)
    t.match(formatPrice(locale, amount, currency), expected, `${locale} ${amount} ${currency}`);
});
