import { csvLine, dayRangeBounds, EVENT_LOG_CSV_COLUMNS } from '@nudge/contracts';
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

/**
 * The admin's event log: every row with an event-log type (web events and the readers' domain activity), in time
 * order (newest first unless asked), deduplicated by id (FINAL). Rows hold no address: the reader's current one is
 * added from the user directory (none for a deleted reader).
 */
const logSelect = (
  where: string,
  order: 'ASC' | 'DESC',
  window: string,
) => `SELECT e.id AS id, e.user_id AS user_id, e.user_email AS user_email,
    e.log_type AS log_type, e.log_value AS log_value,
    formatDateTime(e.occurred_at, '%Y-%m-%dT%H:%i:%S.%fZ') AS created_at, e.metadata AS metadata
  FROM (SELECT * FROM events FINAL WHERE ${where} ORDER BY occurred_at ${order}, id ${order} ${window}) AS e
  ORDER BY e.occurred_at ${order}, e.id ${order}`;

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
  return {
    async page(page: number, limit: number, filter: EventLogFilter = {}) {
      const userId = filter.email ? (await directory.byEmail(filter.email))?._id : undefined;
      const where = whereOf(filter, userId);
      const order = filter.order === 'asc' ? 'ASC' : 'DESC';
      const [rows, [count]] = await Promise.all([
        analytics.query<LogRow>(logSelect(where.sql, order, 'LIMIT {limit:UInt32} OFFSET {offset:UInt64}'), {
          ...where.params,
          limit,
          offset: (page - 1) * limit,
        }),
        analytics.query<{ total: number }>(
          `SELECT uniqExact(id) AS total FROM events WHERE ${where.sql}`,
          where.params,
        ),
      ]);
      return { total: Number(count?.total ?? 0), data: (await withEmails(rows)).map(logView) };
    },
    /** EventLogs.csv, chunk by chunk from ClickHouse's stream: a million rows never sit in memory at once. */
    async *csv(): AsyncIterable<string> {
      yield csvLine(EVENT_LOG_CSV_COLUMNS);
      for await (const chunk of analytics.stream<LogRow>(logSelect("log_type != ''", 'DESC', ''))) {
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
