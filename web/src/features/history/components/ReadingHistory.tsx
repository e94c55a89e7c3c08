import { type ReactNode, useMemo } from 'react';
import { useAppSelector } from '../../../app/hooks';
import { selectUser } from '../../auth/selectors';
import {
  displayedStreak,
  resolveTimeZone,
  type StripDay,
  totalRead,
  weeklyStrip,
} from '../../progress/history';
import { LoadingLine } from '../../ui/components/StatusLines';
import { HISTORY_UNAVAILABLE } from '../historyResponse';
import { selectHistory, selectHistoryStatus } from '../selectors';
import { dayDescription, dayUnit } from '../stripText';
import '../history.css';

function stateClass(day: StripDay): string {
  if (day.read) return 'week-strip__day--read';
  if (day.pending) return 'week-strip__day--pending';
  return day.beforeStart ? 'week-strip__day--before' : 'week-strip__day--missed';
}

/**
 * The weekly strip of 7 days (today highlighted, days read green with a tick, others red with a cross, each
 * with its words for screen readers; days before the sign-up and today until read neutral), then Current Streak and Total read. Days are counted in the reader's time
 * zone (the user record's timeZone). `aside` sits next to the numbers (the levels widget).
 */
export function ReadingHistory({ aside }: { aside?: ReactNode }) {
  const status = useAppSelector(selectHistoryStatus);
  const history = useAppSelector(selectHistory);
  const user = useAppSelector(selectUser);
  const timeZone = resolveTimeZone(user?.timeZone);
  const since = user?.createdAt ?? null;

  const summary = useMemo(() => {
    const today = new Date();
    return {
      strip: weeklyStrip(history, today, timeZone, undefined, since),
      streak: displayedStreak(history, today, timeZone),
      total: totalRead(history),
    };
  }, [history, timeZone, since]);

  if (status === 'failed')
    return (
      <section className="reading reading--failed" aria-label="Your reading">
        <p className="muted reading__notice">{HISTORY_UNAVAILABLE}</p>
      </section>
    );
  if (status !== 'loaded')
    return (
      <section className="reading reading--loading" aria-label="Your reading">
        <LoadingLine label="Loading your reading history…" size={24} hideLabel />
      </section>
    );

  return (
    <section className="reading" aria-labelledby="reading-title">
      <h2 id="reading-title" className="visually-hidden">
        Your reading this week
      </h2>
      <ol className="week-strip">
        {summary.strip.map((day) => (
          <li
            key={day.key}
            className={`week-strip__day ${stateClass(day)}${day.isToday ? ' week-strip__day--today' : ''}`}
            aria-current={day.isToday ? 'date' : undefined}
          >
            <span className="week-strip__label" aria-hidden="true">
              {day.isToday ? 'Today' : day.label}
            </span>
            <span className="week-strip__mark" aria-hidden="true">
              {day.read ? '✓' : day.beforeStart || day.pending ? '' : '✕'}
            </span>
            <span className="week-strip__date" aria-hidden="true">
              {day.dayOfMonth}
            </span>
            <span className="visually-hidden">{dayDescription(day)}</span>
          </li>
        ))}
      </ol>
      <div className="reading__stats">
        <dl className="reading__numbers">
          <div className="reading__number">
            <dt>Current Streak</dt>
            <dd>
              {summary.streak} <span className="reading__unit">{dayUnit(summary.streak)}</span>
            </dd>
          </div>
          <div className="reading__number">
            <dt>Total read</dt>
            <dd>{summary.total}</dd>
          </div>
        </dl>
        {aside}
      </div>
    </section>
  );
}
