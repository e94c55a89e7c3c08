import { useAppSelector } from '../../../app/hooks';
import { selectSettings } from '../../settings/selectors';
import { selectProgress } from '../selectors';

/** The wellbeing score bar (signed-in readers only); label from the topscoretext setting. */
export function WellbeingScore() {
  const { topscoretext } = useAppSelector(selectSettings);
  const progress = useAppSelector(selectProgress);
  const loaded = progress.status === 'loaded';
  return (
    <section className="score" aria-labelledby="score-label">
      <div className="score__head">
        <h2 id="score-label" className="score__label">
          {topscoretext}
        </h2>
        {loaded && <span className="score__value">{Math.round(progress.average)}%</span>}
      </div>
      {loaded && (
        <div
          className="score__bar"
          role="progressbar"
          aria-labelledby="score-label"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(progress.average)}
        >
          <span className="score__fill" style={{ width: `${progress.average}%` }} />
        </div>
      )}
      {progress.status === 'loading' && <p className="muted">Loading…</p>}
      {progress.message && <p className="muted score__message">{progress.message}</p>}
    </section>
  );
}
