import { type ReactNode, useId, useMemo, useState } from 'react';
import { useAppSelector } from '../../../app/hooks';
import { selectUser } from '../../auth/selectors';
import { selectHistory, selectHistoryStatus } from '../../history/selectors';
import { dayUnit } from '../../history/stripText';
import { displayedStreak, resolveTimeZone, totalRead } from '../../progress/history';
import { selectSettings } from '../../settings/selectors';
import { selectProgress } from '../selectors';

/** The one line a phone shows instead of the score, strip, levels and toggles (which it expands into). */
export function summaryLine(input: {
  streak: number;
  total: number;
  score: number | null;
  scoreLabel: string;
}): string {
  const parts = [`Streak ${input.streak} ${dayUnit(input.streak)}`, `Total read ${input.total}`];
  if (input.score !== null) parts.push(`${input.scoreLabel} ${input.score}`);
  return parts.join(' · ');
}

/**
 * The signed-in reader's progress block (wellbeing score, weekly strip, levels, toggles). On a phone it folds into
 * one summary line with a 'Show' button so the first post is above the fold; on wider screens it is always open.
 */
export function ProgressSummary({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const regionId = useId();
  const history = useAppSelector(selectHistory);
  const historyStatus = useAppSelector(selectHistoryStatus);
  const user = useAppSelector(selectUser);
  const progress = useAppSelector(selectProgress);
  const { topscoretext } = useAppSelector(selectSettings);
  const line = useMemo(() => {
    if (historyStatus !== 'loaded') return 'Your progress';
    const timeZone = resolveTimeZone(user?.timeZone);
    return summaryLine({
      streak: displayedStreak(history, new Date(), timeZone),
      total: totalRead(history),
      score: progress.status === 'loaded' && progress.answered ? Math.round(progress.average) : null,
      scoreLabel: topscoretext,
    });
  }, [history, historyStatus, user?.timeZone, progress, topscoretext]);
  return (
    <div className={`progress-summary${open ? ' progress-summary--open' : ''}`}>
      <div className="progress-summary__bar">
        <span className="progress-summary__line">{line}</span>
        <button
          type="button"
          className="link-button progress-summary__toggle"
          aria-expanded={open}
          aria-controls={regionId}
          onClick={() => setOpen((value) => !value)}
        >
          {open ? 'Hide' : 'Show'} progress
        </button>
      </div>
      <div id={regionId} className="progress-summary__body">
        {children}
      </div>
    </div>
  );
}
