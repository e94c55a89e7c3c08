import { Link } from 'react-router-dom';
import { NarrowLayout } from '../../layout/components/NarrowLayout';
import '../payments.css';
import { ResultIcon } from './ResultIcon';

/** /payment-failed (reader.md §2). */
export function PaymentFailedPage() {
  return (
    <NarrowLayout>
      <section className="card result">
        <ResultIcon kind="failure" />
        <h1 className="result__title">Payment Failed!</h1>
        <div className="result__actions">
          <Link to="/upgrade" className="button">
            Try Again
          </Link>
          <Link to="/" className="button button--secondary">
            Home
          </Link>
        </div>
      </section>
    </NarrowLayout>
  );
}
