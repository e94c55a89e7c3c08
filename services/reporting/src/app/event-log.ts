import { csvHeader, csvLine, dayRangeBounds, EVENT_LOG_CSV_COLUMNS } from '@nudge/contracts';
import type { UserDirectory } from '@nudge/platform';
import type { AnalyticsStore, QueryParams } from '../analytics';

interface LogRow {
  id: string;
  user_id: string;
  user_email: string;
  log_type: string;
  log_value: string;
  created_at: string;
  metadata: Record<string, string>;
}

/** The event log's filters (all optional) and time order. */
export interface EventLogFilter {
  eventType?: string;
  /** The user's e-mail (their current one, from the user directory). */
  email?: string;
  from?: string;
  to?: string;
  order?: 'asc' | 'desc';
}

/** The WHERE conditions of a filter, its values as query parameters only. */
function whereOf(filter: EventLogFilter, userId?: string): { sql: string; params: QueryParams } {
  const conditions = ["log_type != ''"];
  const params: QueryParams = {};
  if (filter.eventType) {
    conditions.push('log_type = {eventType:String}');
    params.eventType = filter.eventType;
  }
  if (filter.email) {
    // An address no reader has now matches no row.
    conditions.push('user_id = {userId:String}');
    params.userId = userId ?? '\u0000';
  }
  const { gte, lt } = dayRangeBounds(filter);
  if (gte) {
    conditions.push("occurred_at >= parseDateTime64BestEffort({gte:String}, 3, 'UTC')");
    params.gte = gte;
  }
  if (lt) {
    conditions.push("occurred_at < parseDateTime64BestEffort({lt:String}, 3, 'UTC')");
    params.lt = lt;
  }
  return { sql: conditions.join(' AND '), params };
}

/** The event log's columns. Rows hold no address: the reader's current one is added from the user directory (none
 * for a deleted reader). */
const logColumns = (from: string) => `SELECT e.id AS id, e.user_id AS user_id, e.user_email AS user_email,
    e.log_type AS log_type, e.log_value AS log_value,
    formatDateTime(e.occurred_at, '%Y-%m-%dT%H:%i:%S.%fZ') AS created_at, e.metadata AS metadata
  FROM (${from}) AS e`;
const LOG_FIELDS = 'id, user_id, user_email, log_type, log_value, occurred_at, metadata';

/**
 * Every row with an event-log type, in time order, deduplicated by id (FINAL): the CSV export, which reads it all.
 */
const allLogs = (where: string, order: 'ASC' | 'DESC') =>
  `${logColumns(`SELECT ${LOG_FIELDS} FROM events FINAL WHERE ${where}`)}
  ORDER BY e.occurred_at ${order}, e.id ${order}`;

/**
 * One page of the log, read in the table's own order (occurred_at, id) without FINAL, which would merge every part
 * first: ClickHouse reads only the rows up to the page's end. A redelivered event not yet folded by a merge has the
 * same (occurred_at, id) as its first delivery, so it sits right beside it: the window read is a little longer than
 * the page and each (occurred_at, id) is kept once.
 */
const logPage = (where: string, order: 'ASC' | 'DESC') =>
  `${logColumns(`SELECT * FROM (
      SELECT ${LOG_FIELDS} FROM events WHERE ${where}
      ORDER BY occurred_at ${order}, id ${order} LIMIT {window:UInt64})
    ORDER BY occurred_at ${order}, id ${order}
    LIMIT 1 BY occurred_at, id LIMIT {limit:UInt32} OFFSET {offset:UInt64}`)}
  ORDER BY e.occurred_at ${order}, e.id ${order}`;

/** Up to this many rows, the total counts each event once exactly; above it, rows (a redelivery not yet folded by a
 * merge counts twice until it is). */
export const EXACT_TOTAL_MAX = 10_000;
/** Redeliveries one page's window allows for. */
const WINDOW_SLACK = 100;

const isoMillis = (s: string) => s.replace(/(\.\d{3})\d*Z$/, '$1Z');

export const logView = (r: LogRow) => ({
  _id: r.id,
  userId: r.user_id || null,
  userEmail: r.user_email || null,
  eventType: r.log_type,
  eventValue: r.log_value,
  createdAt: isoMillis(r.created_at),
  metadata: r.metadata ?? {},
});

export function createEventLog(deps: {
  analytics: AnalyticsStore;
  directory: Pick<UserDirectory, 'byEmail' | 'byIds'>;
}) {
  const { analytics, directory } = deps;
  /** The rows with each reader's current address (deleted readers: none). */
  const withEmails = async (rows: LogRow[]): Promise<LogRow[]> => {
    const users = await directory.byIds(rows.filter((r) => r.user_id && !r.user_email).map((r) => r.user_id));
    return rows.map((r) => (r.user_email ? r : { ...r, user_email: users.get(r.user_id)?.email ?? '' }));
  };
  /** How many rows match: exact up to EXACT_TOTAL_MAX, the row count above (a cheap count, no distinct ids). */
  const totalOf = async (where: { sql: string; params: QueryParams }) => {
    const [rows] = await analytics.query<{ n: number }>(
      `SELECT count() AS n FROM events WHERE ${where.sql}`,
      where.params,
    );
    const n = Number(rows?.n ?? 0);
    if (n > EXACT_TOTAL_MAX) return n;
    const [exact] = await analytics.query<{ n: number }>(
      `SELECT uniqExact(id) AS n FROM events WHERE ${where.sql}`,
      where.params,
    );
    return Number(exact?.n ?? 0);
  };
  const read = (
    where: { sql: string; params: QueryParams },
    order: 'ASC' | 'DESC',
    offset: number,
    limit: number,
  ) =>
    analytics.query<LogRow>(logPage(where.sql, order), {
      ...where.params,
      limit,
      offset,
      window: offset + limit + WINDOW_SLACK,
    });

  return {
    /**
     * A page of the log, newest first unless `order` is 'asc'. A page past the middle is read from the other end
     * (the last page is as quick as the first).
     */
    async page(page: number, limit: number, filter: EventLogFilter = {}) {
      const userId = filter.email ? (await directory.byEmail(filter.email))?._id : undefined;
      const where = whereOf(filter, userId);
      const order = filter.order === 'asc' ? 'ASC' : 'DESC';
      const offset = (page - 1) * limit;
      const opened = async (rows: LogRow[]) => (await withEmails(rows)).map(logView);
      if (offset + limit <= EXACT_TOTAL_MAX) {
        const [total, rows] = await Promise.all([totalOf(where), read(where, order, offset, limit)]);
        return { total, data: await opened(rows) };
      }
      const total = await totalOf(where);
      if (offset >= total) return { total, data: [] };
      if (offset < total / 2) return { total, data: await opened(await read(where, order, offset, limit)) };
      const end = Math.min(offset + limit, total);
      const rows = await read(where, order === 'ASC' ? 'DESC' : 'ASC', total - end, end - offset);
      return { total, data: await opened(rows.reverse()) };
    },
    /** EventLogs.csv, chunk by chunk from ClickHouse's stream: a million rows never sit in memory at once. */
    async *csv(): AsyncIterable<string> {
      yield csvHeader(EVENT_LOG_CSV_COLUMNS);
      for await (const chunk of analytics.stream<LogRow>(allLogs("log_type != ''", 'DESC'))) {
        yield (await withEmails(chunk))
          .map((r) =>
            csvLine([r.id, r.user_id, r.user_email, r.log_type, r.log_value, isoMillis(r.created_at)]),
          )
          .join('');
      }
    },
  };
}

export type EventLog = ReturnType<typeof createEventLog>;
