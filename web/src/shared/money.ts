/**
 * Every price and amount the reader sees, one way (Intl.NumberFormat): '₹2,500', '$30', '₹123.45' (decimals only
 * when there are some). Rupees group the Indian way (en-IN), dollars the US way.
 */
export type MoneyCurrency = 'INR' | 'USD';

const LOCALE: Readonly<Record<MoneyCurrency, string>> = { INR: 'en-IN', USD: 'en-US' };
const formats = new Map<string, Intl.NumberFormat>();

function format(currency: MoneyCurrency, fraction: 0 | 2): Intl.NumberFormat {
  const key = `${currency}:${fraction}`;
  let found = formats.get(key);
  if (!found) {
    found = new Intl.NumberFormat(LOCALE[currency], {
      style: 'currency',
      currency,
      minimumFractionDigits: fraction,
      maximumFractionDigits: fraction,
    });
    formats.set(key, found);
  }
  return found;
}

/** A whole-or-decimal amount in major units: formatMoney(2500, 'INR') is '₹2,500'. */
export function formatMoney(amount: number, currency: MoneyCurrency): string {
  const cents = Math.round(Math.abs(amount) * 100);
  const text = format(currency, cents % 100 === 0 ? 0 : 2).format(cents / 100);
  return amount < 0 && cents > 0 ? `-${text}` : text;
}
