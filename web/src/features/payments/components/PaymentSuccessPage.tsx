import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch } from '../../../app/hooks';
import { NarrowLayout } from '../../layout/components/NarrowLayout';
import '../payments.css';
import { paymentSucceeded } from '../slice';
import { ResultIcon } from './ResultIcon';

/** /payment-success (reader.md §2). The token is checked again so the premium role applies without a new sign-in. */
export function PaymentSuccessPage() {
  const dispatch = useAppDispatch();
  useEffect(() => {
    dispatch(paymentSucceeded());
  }, [dispatch]);

  return (
    <NarrowLayout>
      <section className="card result">
        <ResultIcon kind="success" />
        <h1 className="result__title">Payment Successful!</h1>
        <div className="result__actions">
          <Link to="/" className="button button--secondary">
            Home
          </Link>
          <Link to="/upgrade" className="button">
            Subscription Details
          </Link>
        </div>
      </section>
    </NarrowLayout>
  );
}
