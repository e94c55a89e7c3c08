import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { readPaymentReturnPost, storePaymentReturnPost } from '../../../shared/storage';
import { selectIsLogin, selectUser } from '../../auth/selectors';
import { NarrowLayout } from '../../layout/components/NarrowLayout';
import { PREMIUM_FEATURES } from '../../subscription/pricing';
import '../payments.css';
import { paymentSucceeded } from '../slice';
import { ResultIcon } from './ResultIcon';

/** How long the success page shows before it takes the reader back to the post the payment started on. */
export const RETURN_TO_POST_MS = 3000;

/**
 * /payment-success (reader.md §2). The token is checked again so the premium role applies without a new sign-in;
 * the page says what premium now gives. A checkout that started on a locked post brings the reader back to that
 * post (now open) once the premium role has arrived.
 */
export function PaymentSuccessPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const user = useAppSelector(selectUser);
  const isLogin = useAppSelector(selectIsLogin);
  const [returnPost] = useState(readPaymentReturnPost);
  const premium = user?.role === 'premium' || user?.role === 'admin';
  useEffect(() => {
    dispatch(paymentSucceeded());
  }, [dispatch]);

  useEffect(() => {
    if (!returnPost || !premium) return;
    const timer = window.setTimeout(() => {
      storePaymentReturnPost(null);
      navigate(`/post/${encodeURIComponent(returnPost)}`, { replace: true });
    }, RETURN_TO_POST_MS);
    return () => window.clearTimeout(timer);
  }, [returnPost, premium, navigate]);

  return (
    <NarrowLayout>
      <section className="card result">
        <ResultIcon kind="success" />
        <h1 className="result__title">Payment Successful!</h1>
        {isLogin ? (
          <>
            <p className="result__text">Premium is yours for 12 months. You now have:</p>
            <ul className="result__features">
              {PREMIUM_FEATURES.map((feature) => (
                <li key={feature}>{feature}</li>
              ))}
            </ul>
          </>
        ) : (
          // Signed out (another browser, a signed-out tab): whose premium this is cannot be told here.
          <p className="result__text">
            Sign in with the e-mail address you paid with to read premium posts. Your receipt is in that
            inbox.
          </p>
        )}
        {isLogin && returnPost && (
          <p className="result__text" role="status">
            {premium ? 'Taking you back to your post…' : 'Unlocking your post…'}
          </p>
        )}
        <div className="result__actions">
          {!isLogin && (
            <Link to="/login" className="button">
              Sign in
            </Link>
          )}
          {isLogin && returnPost && (
            <Link
              to={`/post/${encodeURIComponent(returnPost)}`}
              className="button"
              onClick={() => storePaymentReturnPost(null)}
            >
              Continue reading
            </Link>
          )}
          <Link to="/" className="button button--secondary">
            Home
          </Link>
          <Link to="/upgrade" className={returnPost || !isLogin ? 'button button--secondary' : 'button'}>
            Subscription Details
          </Link>
        </div>
      </section>
    </NarrowLayout>
  );
}
