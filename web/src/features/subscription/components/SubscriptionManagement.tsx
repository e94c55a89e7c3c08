import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { LoadingLine, RetryLine } from '../../ui/components/StatusLines';
import {
  CANCEL_CONFIRM,
  cancelConsequence,
  managementActions,
  renewalState,
  renewalText,
  type SubscriptionDetails,
  subscriptionState,
} from '../renewal';
import {
  selectChangeFailed,
  selectDetailsStatus,
  selectSubscriptionChange,
  selectSubscriptionDetails,
} from '../selectors';
import { cancelRequested, detailsRequested, restartRequested } from '../slice';
import { ConfirmDialog } from './ConfirmDialog';

/** reader.md §2/§4: premium readers' subscription: renewal and subscription state, Cancel and Restart. */
export function SubscriptionManagement() {
  const dispatch = useAppDispatch();
  const status = useAppSelector(selectDetailsStatus);
  const details = useAppSelector(selectSubscriptionDetails);

  useEffect(() => {
    dispatch(detailsRequested());
  }, [dispatch]);

  return (
    <section className="card manage" aria-labelledby="manage-title">
      <h1 id="manage-title" className="page-title">
        Subscription Details
      </h1>
      {(status === 'loading' || status === 'idle') && (
        <LoadingLine label="Loading your subscription…" size={28} />
      )}
      {status === 'failed' && (
        <RetryLine
          className="manage__failed"
          message="Your subscription details can't be loaded right now."
          onRetry={() => dispatch(detailsRequested())}
        />
      )}
      {status === 'loaded' && details && <DetailsView details={details} />}
      {status === 'loaded' && !details && (
        <p className="manage__text">
          Your premium access was not bought here, so there is no subscription to manage.
        </p>
      )}
      <p className="manage__history">
        <Link to="/bilinghistory">Payment History</Link>
      </p>
    </section>
  );
}

function DetailsView({ details }: { details: SubscriptionDetails }) {
  const dispatch = useAppDispatch();
  const change = useAppSelector(selectSubscriptionChange);
  const changeFailed = useAppSelector(selectChangeFailed);
  const [confirming, setConfirming] = useState(false);
  const now = new Date();
  const renewal = renewalState(details.status);
  const subscription = subscriptionState(details.endAt, now);
  const actions = managementActions(details, now);
  const text = renewalText(details, now);

  return (
    <>
      <dl className="manage__states">
        <div className="manage__state">
          <dt>Subscription</dt>
          <dd>
            <span className={`badge ${subscription === 'Active' ? 'badge--ok' : 'badge--off'}`}>
              {subscription}
            </span>
          </dd>
        </div>
        <div className="manage__state">
          <dt>Auto-renewal</dt>
          <dd>
            <span className={`badge ${renewal === 'Active' ? 'badge--ok' : 'badge--off'}`}>{renewal}</span>
          </dd>
        </div>
      </dl>
      {text && <p className="manage__text">{text}</p>}
      <div className="manage__actions">
        {actions.cancel && (
          <button
            type="button"
            className="button button--secondary"
            disabled={change !== 'none'}
            onClick={() => setConfirming(true)}
          >
            Cancel subscription
          </button>
        )}
        {actions.restart && (
          <button
            type="button"
            className="button"
            disabled={change !== 'none'}
            onClick={() => dispatch(restartRequested())}
          >
            Restart subscription
          </button>
        )}
      </div>
      {changeFailed && (
        <p className="field-error" role="alert">
          Your subscription could not be changed. Please try again later.
        </p>
      )}
      <ConfirmDialog
        open={confirming}
        message={CANCEL_CONFIRM}
        detail={cancelConsequence(details, new Date())}
        onNo={() => setConfirming(false)}
        onYes={() => {
          setConfirming(false);
          dispatch(cancelRequested());
        }}
      />
    </>
  );
}
