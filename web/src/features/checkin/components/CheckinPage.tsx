import { useEffect, useMemo, useRef } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { NarrowLayout } from '../../layout/components/NarrowLayout';
import { ResultIcon } from '../../payments/components/ResultIcon';
import { LoadingLine } from '../../ui/components/StatusLines';
import '../../payments/payments.css';
import { CHECKIN_DESTINATION, checkinView, parseCheckinQuery } from '../checkinRules';
import { selectCheckinPhase } from '../selectors';
import { checkinPageLeft, checkinPageOpened, checkinRequested } from '../slice';

/** /checkin?qlid=&a= (reader.md §4): records the e-mailed answer, signs the reader in, then goes to the feed. */
export function CheckinPage() {
  const dispatch = useAppDispatch();
  const [params] = useSearchParams();
  const query = useMemo(() => parseCheckinQuery(params), [params]);
  const recordedPhase = useAppSelector(selectCheckinPhase);
  const reason = useAppSelector((state) => state.checkin.reason).replace(/\.$/, '');
  const phase = query ? recordedPhase : 'invalid';
  const view = checkinView(phase);

  useEffect(() => {
    dispatch(checkinPageOpened());
    return () => {
      dispatch(checkinPageLeft());
    };
  }, [dispatch]);

  // An answer is sent once, even if the page renders or mounts again with the same link.
  const sent = useRef<string | null>(null);
  useEffect(() => {
    if (!query) return;
    const key = `${query.qlid}\n${query.a}`;
    if (sent.current === key) return;
    sent.current = key;
    dispatch(checkinRequested(query));
  }, [dispatch, query]);

  return (
    <NarrowLayout>
      <section className="card result" aria-live="polite">
        {phase === 'loading' ? (
          <>
            <h1 className="visually-hidden">Check-in</h1>
            <LoadingLine label="Recording your response…" size={36} />
          </>
        ) : (
          <>
            {view.icon && <ResultIcon kind={view.icon} />}
            <h1 className="result__title">Check-in</h1>
            <p className="result__text" role={view.icon === 'failure' ? 'alert' : 'status'}>
              {view.text}
            </p>
            {(phase === 'invalid' || phase === 'error') && (
              <p className="result__text muted">
                {reason ? `${reason}. ` : ''}
                {phase === 'invalid' ? 'This check-in link is incomplete. ' : ''}
                Each check-in e-mail has its own link: answer from the newest one, or carry on reading.
              </p>
            )}
            <div className="result__actions">
              <Link to={CHECKIN_DESTINATION} replace className="button">
                Go to Feed
              </Link>
            </div>
          </>
        )}
      </section>
    </NarrowLayout>
  );
}
