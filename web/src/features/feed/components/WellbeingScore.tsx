import { Link } from 'react-router-dom';
import { useAppSelector } from '../../../app/hooks';
import type { User } from '../../../shared/contracts';
import { selectUser } from '../../auth/selectors';
import { selectSettings } from '../../settings/selectors';
import { Spinner } from '../../ui/components/Spinner';
import { firstCheckinHint } from '../firstCheckin';
import { selectProgress } from '../selectors';

/** Before the first answer: when the first question comes, with the way to Settings when e-mails are off. */
function FirstCheckin({ user, emailcheckin }: { user: User | null; emailcheckin: boolean }) {
  const hint = firstCheckinHint(user, emailcheckin, new Date());
  if (!hint) return null;
  return (
    <p className="score__message score__hint">
      {hint}
      {user && !user.enableEmail ? (
        <>
          {' '}
          <Link to="/setting">Open Settings</Link>
        </>
      ) : null}
    </p>
  );
}

/**
 * The wellbeing score bar (signed-in readers only); label from the topscoretext setting, value from
 * POST /api/checkin/progress (average 0-100). Before the first check-in answer there is no score: the
 * server's message says how to get one. A failure shows the server's message or the spec's own words.
 */
export function WellbeingScore() {
  const { topscoretext, emailcheckin } = useAppSelector(selectSettings);
  const progress = useAppSelector(selectProgress);
  const user = useAppSelector(selectUser);
  const loaded = progress.status === 'loaded' && progress.answered;
  const unanswered = progress.status === 'loaded' && !progress.answered;
  const value = Math.round(progress.average);
  return (
    <section className="score" aria-labelledby="score-label">
      <div className="score__head">
        <h2 id="score-label" className="score__label">
          {topscoretext}
        </h2>
        {loaded && (
          <span className="score__value">
            {value}
            <span className="score__max"> / 100</span>
          </span>
        )}
        {progress.status === 'loading' && (
          <span role="status">
            <Spinner size={18} />
            <span className="visually-hidden">Loading {topscoretext}…</span>
          </span>
        )}
      </div>
      {loaded && (
        <div
          className="score__bar"
          role="progressbar"
          aria-labelledby="score-label"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={value}
        >
          <span className="score__fill" style={{ width: `${progress.average}%` }} />
        </div>
      )}
      {unanswered && <p className="score__message">{progress.message}</p>}
      {unanswered && <FirstCheckin user={user} emailcheckin={emailcheckin} />}
      {progress.status === 'failed' && (
        <p className="score__message score__message--failed" role="status">
          {progress.message}
        </p>
      )}
    </section>
  );
}
