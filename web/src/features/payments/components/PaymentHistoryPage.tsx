import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { selectIsLogin } from '../../auth/selectors';
import { NarrowLayout } from '../../layout/components/NarrowLayout';
import { selectSettings } from '../../settings/selectors';
import { signedInAccess } from '../../subscription/access';
import { AccessGate } from '../../subscription/components/AccessGate';
import { LoadingLine, RetryLine } from '../../ui/components/StatusLines';
import { paymentRows } from '../amount';
import '../payments.css';
import { selectPaymentHistory, selectPaymentHistoryStatus } from '../selectors';
import { historyRequested } from '../slice';

/** /bilinghistory (spelt so, reader.md §2): signed-in readers' payments; signed-out visitors go to /login. */
export function PaymentHistoryPage() {
  const isLogin = useAppSelector(selectIsLogin);
  return (
    <AccessGate access={signedInAccess(isLogin)}>
      <PaymentHistory />
    </AccessGate>
  );
}

function PaymentHistory() {
  const dispatch = useAppDispatch();
  const status = useAppSelector(selectPaymentHistoryStatus);
  const history = useAppSelector(selectPaymentHistory);
  const { subscription } = useAppSelector(selectSettings);

  useEffect(() => {
    dispatch(historyRequested());
  }, [dispatch]);

  const rows = paymentRows(history);
  return (
    <NarrowLayout>
      {subscription && (
        <Link to="/upgrade" className="back-link">
          Back to Subscription
        </Link>
      )}
      <h1 className="page-title">Payment History</h1>
      {(status === 'loading' || status === 'idle') && (
        <LoadingLine label="Loading your payments…" size={28} />
      )}
      {status === 'failed' && (
        <RetryLine
          className="history__empty"
          message="Your payment history can't be loaded right now."
          onRetry={() => dispatch(historyRequested())}
        />
      )}
      {status === 'loaded' && rows.length === 0 && (
        <p className="history__empty muted">You have no payments yet.</p>
      )}
      {status === 'loaded' && rows.length > 0 && (
        <table className="history">
          <thead>
            <tr>
              <th scope="col">Start</th>
              <th scope="col">End</th>
              <th scope="col">Type</th>
              <th scope="col" className="history__amount">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key}>
                <td>{row.start}</td>
                <td>{row.end}</td>
                <td>{row.kind}</td>
                <td className="history__amount">{row.amount}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </NarrowLayout>
  );
}
