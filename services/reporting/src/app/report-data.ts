import type { ReportPeriodRow } from '@nudge/contracts';
import { badRequest } from '@nudge/platform';
import type { AnalyticsStore } from '../analytics';
import { chDate, type Period, percent, periodLabel, periodsBetween, type View } from '../domain/periods';

interface ActivityRow {
  start: string;
  kind: 'active' | 'q_sent' | 'q_answered';
  question_id: string;
  n: number;
  people: number;
}

/** The metric definitions are in services/reporting/README.md ("Metrics"); each is tested on a fixed data set. */
export function createReportData(deps: { analytics: AnalyticsStore; clock: () => Date }) {
  const { analytics } = deps;

  const registrations = async (ids: string[]) =>
    ids.length === 0
      ? []
      : (
          await analytics.query<{ user_id: string; registered_at: string }>(
            `SELECT user_id, toString(min(registered_at)) AS registered_at FROM users
             WHERE user_id IN {ids:Array(String)} GROUP BY user_id`,
            { ids },
          )
        ).map((r) => new Date(`${r.registered_at.replace(' ', 'T')}Z`));

  /** The rows of the given periods (all within one contiguous range), newest first. */
  const rowsFor = async (ids: string[], view: View, periods: Period[], registered: Date[]) => {
    if (periods.length === 0) return [];
    const from = periods[periods.length - 1] as Period;
    const to = periods[0] as Period;
    const activity = await analytics.query<ActivityRow>(
      `SELECT toString(if({quarterly:Bool}, toStartOfQuarter(month), month)) AS start, kind, question_id,
         uniqExactMerge(events) AS n, uniqExact(user_id) AS people
       FROM activity_monthly
       WHERE user_id IN {ids:Array(String)} AND month >= {from:Date} AND month < {to:Date}
       GROUP BY start, kind, question_id`,
      { ids, quarterly: view === 'quarterly', from: chDate(from.start), to: chDate(to.end) },
    );
    return periods.map((p): ReportPeriodRow => {
      const mine = activity.filter((a) => a.start === chDate(p.start));
      const sum = (kind: ActivityRow['kind']) =>
        mine.filter((a) => a.kind === kind).reduce((s, a) => s + Number(a.n), 0);
      const unique = registered.filter((d) => d < p.end).length;
      const active = Number(mine.find((a) => a.kind === 'active')?.people ?? 0);
      const sent = sum('q_sent');
      const answered = sum('q_answered');
      const sentQuestions = [
        ...new Set(mine.filter((a) => a.kind === 'q_sent').map((a) => a.question_id)),
      ].sort();
      return {
        period: p.key,
        uniquePeopleCount: unique,
        activePeopleCount: active,
        activePeoplePercentage: percent(active, unique),
        questionsSent: sent,
        questionsAnswered: answered,
        responseRate: percent(answered, sent),
        answers: sentQuestions.map((qid) => ({
          qid,
          total: Number(mine.find((a) => a.kind === 'q_answered' && a.question_id === qid)?.n ?? 0),
        })),
      };
    });
  };

  /** The questions sent to these users at any time, with their current body and scale. */
  const questionsOf = async (ids: string[]) => {
    if (ids.length === 0) return [];
    return (
      await analytics.query<{ _id: string; body: string; scale: string }>(
        `SELECT question_id AS _id, argMax(body, updated_at) AS body, argMax(scale, updated_at) AS scale
         FROM questions
         WHERE question_id IN (
           SELECT DISTINCT question_id FROM activity_monthly
           WHERE kind = 'q_sent' AND user_id IN {ids:Array(String)})
         GROUP BY question_id ORDER BY question_id`,
        { ids },
      )
    ).map((q) => ({ _id: q._id, body: q.body, scale: q.scale || 'normal' }));
  };

  const allPeriods = (view: View, registered: Date[]) => {
    if (registered.length === 0) return [];
    const earliest = new Date(Math.min(...registered.map((d) => d.getTime())));
    return periodsBetween(view, earliest, deps.clock());
  };

  return {
    async page(monitored: string[], view: View, page: number, limit: number) {
      const registered = await registrations(monitored);
      const periods = allPeriods(view, registered);
      const totalPages = Math.max(1, Math.ceil(periods.length / limit));
      if (page > totalPages) throw badRequest(`page must be between 1 and ${totalPages}`);
      const shown = periods.slice((page - 1) * limit, page * limit);
      const [data, questions] = await Promise.all([
        rowsFor(monitored, view, shown, registered),
        questionsOf(monitored),
      ]);
      return { data, pagination: { currentPage: page, totalPages }, questions };
    },
    /** admin.md §3's CSV shape: every period, newest first; a question's column is 0 where absent. */
    async download(monitored: string[], view: View) {
      const registered = await registrations(monitored);
      const periods = allPeriods(view, registered);
      const [rows, questions] = await Promise.all([
        rowsFor(monitored, view, periods, registered),
        questionsOf(monitored),
      ]);
      const metrics = [
        { key: 'uniquePeopleCount', label: 'Unique People Count' },
        { key: 'activePeopleCount', label: 'Active People' },
        { key: 'activePeoplePercentage', label: 'Active People %' },
        { key: 'questionsSent', label: 'Questions Sent' },
        { key: 'questionsAnswered', label: 'Questions Answered' },
        { key: 'responseRate', label: 'Response Rate' },
        ...questions.map((q) => ({ key: q._id, label: q.body })),
      ];
      return {
        headers: { year: 'Year', period: view === 'monthly' ? 'Month' : 'Quarter', metrics },
        rows: rows.map((row, i) => {
          const p = periods[i] as Period;
          const { answers, period: _key, ...six } = row;
          const out: Record<string, string | number> = {
            year: String(p.year),
            period: periodLabel(view, p),
            ...six,
          };
          for (const q of questions) out[q._id] = answers.find((a) => a.qid === q._id)?.total ?? 0;
          return out;
        }),
      };
    },
  };
}

export type ReportData = ReturnType<typeof createReportData>;
