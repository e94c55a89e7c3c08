import { createHash } from 'node:crypto';
import type { ReportPeriodRow } from '@nudge/contracts';
import { badRequest } from '@nudge/platform';
import { type AnalyticsStore, forIdChunks } from '../analytics';
import {
  chDate,
  type Period,
  percent,
  periodLabel,
  periodOf,
  periodsBetween,
  type View,
} from '../domain/periods';

interface ActivityRow {
  start: string;
  /** '' = the users' activity; otherwise a question's sends and answers. */
  question_id: string;
  n_people: number;
  n_sent: number;
  n_answered: number;
}

/** Registrations of a set's users per calendar month (the month's first day, UTC). */
type Registrations = { month: Date; n: number }[];

/** Months [from, to) of the set's periods to read. */
interface MonthRange {
  from: Date;
  to: Date;
}
const ALL_MONTHS: MonthRange = { from: new Date('1970-01-01'), to: new Date('2149-01-01') };

interface SetData {
  registered: Registrations;
  activity: ActivityRow[];
  questions: { _id: string; body: string; scale: string }[];
}

/** The monitored users of a set (report_members, keyed by set: a range read of the primary key). */
const MONITORED = 'user_key IN (SELECT user_key FROM report_members WHERE set_id = {set:String})';

/** A list of monitored users as a set id: the same ids in any order are one set; another list is another set. */
export const setIdOf = (ids: readonly string[]): string =>
  createHash('sha256')
    .update([...new Set(ids)].sort().join('\n'))
    .digest('hex')
    .slice(0, 32);

/** The metric definitions are in services/reporting/README.md ("Metrics"); each is tested on a fixed data set. */
export function createReportData(deps: { analytics: AnalyticsStore; clock: () => Date }) {
  const { analytics } = deps;

  /**
   * Makes sure a set's members and rows are in ClickHouse: the first call for a list of users records the members,
   * copies their rows of report_user_months into report_set_months (one scan, once per list), and marks the set
   * filled; the cascaded view keeps it current from then on. Events that arrive during the copy reach the set
   * both ways and are set elements again, so nothing doubles; a copy cut short (a crash) is redone whole.
   */
  const filling = new Map<string, Promise<void>>();
  /** Sets this process saw filled (the check costs a query; a set, once filled, is kept by the views). */
  const filled = new Set<string>();
  const ensureSet = (set: string, ids: string[]): Promise<void> => {
    if (filled.has(set)) return Promise.resolve();
    let done = filling.get(set);
    if (!done) {
      done = (async () => {
        const [row] = await analytics.query<{ n: number }>(
          'SELECT count() AS n FROM report_sets WHERE set_id = {set:String}',
          { set },
        );
        if (Number(row?.n ?? 0) > 0) return;
        // Members first: from here on the views copy every new insert for the set, so the copies below miss nothing.
        await forIdChunks(ids, async (chunk) => {
          await analytics.exec(
            'INSERT INTO report_members SELECT {set:String}, cityHash64(arrayJoin({ids:Array(String)}))',
            { set, ids: chunk },
          );
          return [];
        });
        await analytics.exec(
          `INSERT INTO report_set_months SELECT {set:String}, month, user_key, active, sent, answered
           FROM report_user_months WHERE ${MONITORED}`,
          { set },
        );
        await analytics.exec(
          `INSERT INTO report_set_users SELECT {set:String}, user_key, registered_at, questions
           FROM report_users WHERE ${MONITORED}`,
          { set },
        );
        await analytics.exec("INSERT INTO report_sets SELECT {set:String}, now64(3, 'UTC')", { set });
      })()
        .then(() => {
          filled.add(set);
        })
        .finally(() => filling.delete(set));
      filling.set(set, done);
    }
    return done;
  };

  /** The per-report tables, each keyed by set first (report_sets last: a set cut short is refilled whole). */
  const SET_TABLES = [
    'report_members',
    'report_set_months',
    'report_set_periods',
    'report_set_users',
    'report_sets',
  ];

  /**
   * Deletes the rows of every set that none of the given member lists (the reports as they stand) is any more: a
   * report whose monitored users changed leaves its old set behind. So the per-set tables hold the live reports'
   * rows only, and the cascaded views, which join every inserted block with report_members, join the live
   * members only. Returns the sets removed.
   */
  const collectSets = async (liveLists: readonly (readonly string[])[]): Promise<string[]> => {
    const live = new Set(liveLists.filter((ids) => ids.length > 0).map((ids) => setIdOf(ids)));
    const stored = await analytics.query<{ set_id: string }>(
      'SELECT DISTINCT set_id FROM report_members UNION DISTINCT SELECT DISTINCT set_id FROM report_sets',
    );
    const dead = stored.map((r) => r.set_id).filter((set) => !live.has(set) && !filling.has(set));
    if (dead.length === 0) return [];
    for (const set of dead) filled.delete(set);
    // Members first: from then on no insert reaches the dead sets' rows through the views.
    for (const table of SET_TABLES)
      await analytics.exec(`DELETE FROM ${table} WHERE set_id IN {dead:Array(String)}`, { dead });
    return dead;
  };

  /**
   * Everything a page or the CSV needs of a set, in one statement (one trip to the engine): the monitored users'
   * registrations counted by calendar month (UTC; periods end on month boundaries, so a month's count is all a
   * period needs), the pre-aggregated rows of the periods in `months` (months x questions rows of exact-distinct states,
   * merged per period: a primary-key range of the set), and the questions ever sent to the users (those with rows
   * in the set's periods), with their current body and scale. A few hundred values back, however many events the users have.
   */
  const readSet = async (ids: string[], view: View, months: MonthRange = ALL_MONTHS): Promise<SetData> => {
    if (ids.length === 0) return { registered: [], activity: [], questions: [] };
    const set = setIdOf(ids);
    await ensureSet(set, ids);
    const [row] = await analytics.query<{
      months: [number, number][];
      activity: [string, string, number, number, number][];
      questions: [string, string, string][];
    }>(
      `SELECT
         (SELECT groupArray((ms, n)) FROM (
           SELECT toInt64(toUnixTimestamp(toDateTime(toStartOfMonth(assumeNotNull(registered)), 'UTC'))) * 1000 AS ms,
             count() AS n
           FROM (
             SELECT min(registered_at) AS registered FROM report_set_users WHERE set_id = {set:String}
             GROUP BY user_key)
           WHERE registered IS NOT NULL GROUP BY ms)) AS months,
         (SELECT groupArray((start, question_id, n_people, n_sent, n_answered)) FROM (
           SELECT toString(if({quarterly:Bool}, toStartOfQuarter(month), month)) AS start, question_id,
             uniqExactMerge(people) AS n_people, uniqExactMerge(sends) AS n_sent,
             uniqExactMerge(answers) AS n_answered
           FROM report_set_periods
           WHERE set_id = {set:String} AND month >= {from:Date} AND month < {to:Date}
           GROUP BY start, question_id)) AS activity,
         (SELECT groupArray((question_id, body, scale)) FROM (
           SELECT question_id, argMax(body, updated_at) AS body, argMax(scale, updated_at) AS scale FROM questions
           WHERE question_id IN (
             SELECT question_id FROM report_set_periods WHERE set_id = {set:String} AND question_id != '')
           GROUP BY question_id ORDER BY question_id)) AS questions`,
      { set, quarterly: view === 'quarterly', from: chDate(months.from), to: chDate(months.to) },
    );
    return {
      registered: (row?.months ?? []).map(([ms, n]) => ({ month: new Date(Number(ms)), n: Number(n) })),
      activity: (row?.activity ?? []).map(([start, question_id, people, sent, answered]) => ({
        start,
        question_id,
        n_people: Number(people),
        n_sent: Number(sent),
        n_answered: Number(answered),
      })),
      questions: (row?.questions ?? []).map(([_id, body, scale]) => ({
        _id,
        body,
        scale: scale || 'normal',
      })),
    };
  };

  /** The rows of the given periods, newest first. */
  const rowsFor = ({ activity, registered }: SetData, periods: Period[]) =>
    periods.map((p): ReportPeriodRow => {
      const mine = activity.filter((a) => a.start === chDate(p.start));
      const questions = mine.filter((a) => a.question_id !== '');
      const unique = registered.reduce((sum, r) => (r.month < p.end ? sum + r.n : sum), 0);
      const active = mine.find((a) => a.question_id === '')?.n_people ?? 0;
      const sent = questions.reduce((s, a) => s + a.n_sent, 0);
      const answered = questions.reduce((s, a) => s + a.n_answered, 0);
      const sentQuestions = questions
        .filter((a) => a.n_sent > 0)
        .map((a) => a.question_id)
        .sort();
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
          total: questions.find((a) => a.question_id === qid)?.n_answered ?? 0,
        })),
      };
    });

  const allPeriods = (view: View, registered: Registrations) => {
    if (registered.length === 0) return [];
    const earliest = new Date(Math.min(...registered.map((r) => r.month.getTime())));
    return periodsBetween(view, earliest, deps.clock());
  };

  /**
   * The months of a page: the list counts back from the current period (newest first), so page p's periods are
   * known before the first registration is (a page past the end reads nothing and is refused below).
   */
  const pageMonths = (view: View, page: number, limit: number): MonthRange => {
    const newest = periodOf(view, deps.clock()).start;
    const step = view === 'monthly' ? 1 : 3;
    // Never before 1970 (no fact is older; the engine's dates start there): a page far past the end reads nothing.
    const back = (periods: number) =>
      new Date(
        Math.max(
          0,
          Date.UTC(newest.getUTCFullYear(), newest.getUTCMonth() - Math.min(periods, 10_000) * step, 1),
        ),
      );
    return { from: back(page * limit - 1), to: back((page - 1) * limit - 1) };
  };

  const computePage = async (monitored: string[], view: View, page: number, limit: number) => {
    const set = await readSet(monitored, view, pageMonths(view, page, limit));
    const periods = allPeriods(view, set.registered);
    const totalPages = Math.max(1, Math.ceil(periods.length / limit));
    if (page > totalPages) throw badRequest(`page must be between 1 and ${totalPages}`);
    const data = rowsFor(set, periods.slice((page - 1) * limit, page * limit));
    return { data, pagination: { currentPage: page, totalPages }, questions: set.questions };
  };

  // Identical calls that arrive while one is computing share its answer (single flight): a report opened by many
  // viewers at once costs one computation, not one per viewer, and nothing is kept once it is answered.
  const pending = new Map<string, ReturnType<typeof computePage>>();

  return {
    collectSets,
    /**
     * `listKey` names the monitored list for the single flight (the route gives the report's id and version: joining
     * 10,000 ids on every request cost 13 % of the process's CPU under the bench).
     */
    page(monitored: string[], view: View, page: number, limit: number, listKey = monitored.join(',')) {
      const key = `${view}|${page}|${limit}|${listKey}`;
      let answer = pending.get(key);
      if (!answer) {
        answer = computePage(monitored, view, page, limit).finally(() => pending.delete(key));
        pending.set(key, answer);
      }
      return answer;
    },
    /** admin.md §3's CSV shape: every period, newest first; a question's column is 0 where absent. */
    async download(monitored: string[], view: View) {
      const set = await readSet(monitored, view);
      const periods = allPeriods(view, set.registered);
      const rows = rowsFor(set, periods);
      const { questions } = set;
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
