import { useEffect } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { NarrowLayout } from '../../layout/components/NarrowLayout';
import { LoadingLine } from '../../ui/components/StatusLines';
import { selectUnsubscribe } from '../selectors';
import { notificationDetailsRequested, notificationToggleRequested } from '../slice';

/** /unsubscribe/{id}: the notification preference behind an e-mail's unsubscribe link. */
export function UnsubscribePage() {
  const { id = '' } = useParams();
  const dispatch = useAppDispatch();
  const { status, details, error, toggling } = useAppSelector(selectUnsubscribe);

  useEffect(() => {
    dispatch(notificationDetailsRequested(id));
  }, [dispatch, id]);

  return (
    <NarrowLayout>
      <div className="card unsubscribe">
        <h1 className="page-title">Notification preference</h1>
        {status === 'loading' && <LoadingLine label="Loading your preference…" size={28} />}
        {status === 'failed' && (
          <>
            <p className="field-error" role="alert">
              {error}
            </p>
            <p className="muted">
              Unsubscribe links work for a while after each e-mail. You can also turn reminders off in your
              settings once you sign in.
            </p>
            <Link to="/" className="button button--block">
              Go to Home
            </Link>
          </>
        )}
        {status === 'loaded' && details && (
          <>
            <p>
              You are currently: <strong>{details.notiinfo.active ? 'subscribed' : 'unsubscribed'}</strong>
            </p>
            <p className="muted">{details.email}</p>
            <button
              type="button"
              className="button button--block"
              disabled={toggling}
              onClick={() => dispatch(notificationToggleRequested(id))}
            >
              {details.notiinfo.active ? 'Unsubscribe' : 'Subscribe again'}
            </button>
          </>
        )}
      </div>
    </NarrowLayout>
  );
}
