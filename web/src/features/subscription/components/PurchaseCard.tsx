import { Link, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { storePaymentReturnPost } from '../../../shared/storage';
import { selectCheckout, selectCheckoutFailed } from '../../payments/selectors';
import { checkoutRequested } from '../../payments/slice';
import {
  CHECKOUT_CURRENCY,
  PLAN,
  PREMIUM_FEATURES,
  priceLabel,
  pricePerYearLabel,
  REFUND_WINDOW_DAYS,
} from '../pricing';
import { selectCurrency } from '../selectors';
import { CurrencyToggle } from './CurrencyToggle';

/** reader.md §2: the purchase card of /upgrade for readers who are not premium. */
export function PurchaseCard() {
  const dispatch = useAppDispatch();
  const currency = useAppSelector(selectCurrency);
  const checkout = useAppSelector(selectCheckout);
  const failed = useAppSelector(selectCheckoutFailed);
  const busy = checkout !== 'idle';
  const [params] = useSearchParams();
  const fromPost = params.get('post');

  return (
    <section className="card plan" aria-labelledby="plan-title">
      <p className="plan__eyebrow">{PLAN.label}</p>
      <h1 id="plan-title" className="plan__title">
        Premium
      </h1>
      <p className="plan__subtitle">12 month Premium Subscription</p>
      <div className="plan__price-row">
        <p className="plan__price">
          <span className="plan__amount">{priceLabel(currency)}</span>
          <span className="plan__per"> per year</span>
        </p>
        <CurrencyToggle />
      </div>
      <ul className="plan__features">
        {PREMIUM_FEATURES.map((feature) => (
          <li key={feature}>
            <svg className="plan__tick" viewBox="0 0 20 20" width="20" height="20" aria-hidden="true">
              <path
                d="M4 10.5l4 4 8-9"
                fill="none"
                stroke="currentColor"
                strokeWidth="2.4"
                strokeLinecap="round"
              />
            </svg>
            {feature}
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="button button--block"
        disabled={busy}
        aria-busy={busy}
        onClick={() => {
          // Started on a locked post (?post=id): the success page brings the reader back to it.
          storePaymentReturnPost(fromPost);
          dispatch(checkoutRequested());
        }}
      >
        Subscribe now
      </button>
      {failed && (
        <p className="field-error plan__error" role="alert">
          The checkout could not be started. Please try again later.
        </p>
      )}
      <p className="muted plan__note">
        {currency === CHECKOUT_CURRENCY ? 'Charged' : 'Charged in Indian rupees'} at{' '}
        {pricePerYearLabel(CHECKOUT_CURRENCY)}. Cancel within {REFUND_WINDOW_DAYS} days of the start for a
        refund.
      </p>
      <p className="plan__history">
        <Link to="/bilinghistory">Payment History</Link>
      </p>
    </section>
  );
}
