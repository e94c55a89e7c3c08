import { csvLine, EVENT_LOG_CSV_COLUMNS } from '@nudge/contracts';
import type { AnalyticsStore } from '../analytics';

interface LogRow {
  id: string;
  user_id: string;
  user_email: string;
  log_type: string;
  log_value: string;
  created_at: string;
  metadata: Record<string, string>;
}

/**
 * The admin's event log: every row with an event-log type (web events and the readers' domain activity), newest
 * first, deduplicated by id (FINAL). The e-mail is the one stamped at intake, else the user's registered one.
 */
const LOG_SELECT = `SELECT e.id AS id, e.user_id AS user_id,
    if(e.user_email != '', e.user_email, u.email) AS user_email,
    e.log_type AS log_type, e.log_value AS log_value,
    formatDateTime(e.occurred_at, '%Y-%m-%dT%H:%i:%S.%fZ') AS created_at, e.metadata AS metadata
  FROM (SELECT * FROM events FINAL WHERE log_type != '' ORDER BY occurred_at DESC, id DESC {window}) AS e
  LEFT JOIN (SELECT user_id, any(email) AS email FROM users GROUP BY user_id) AS u ON u.user_id = e.user_id
  ORDER BY e.occurred_at DESC, e.id DESC`;

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

export function createEventLog(deps: { analytics: AnalyticsStore }) {
  const { analytics } = deps;
  return {
    async page(page: number, limit: number) {
      const [rows, [count]] = await Promise.all([
        analytics.query<LogRow>(
          LOG_SELECT.replace('{window}', 'LIMIT {limit:UInt32} OFFSET {offset:UInt64}'),
          {
            limit,
            offset: (page - 1) * limit,
          },
        ),
        analytics.query<{ total: number }>("SELECT uniqExact(id) AS total FROM events WHERE log_type != ''"),
      ]);
      return { total: Number(count?.total ?? 0), data: rows.map(logView) };
    },
    /** EventLogs.csv, chunk by chunk from ClickHouse's stream: a million rows never sit in memory at once. */
    async *csv(): AsyncIterable<string> {
      yield csvLine(EVENT_LOG_CSV_COLUMNS);
      for await (const rows of analytics.stream<LogRow>(LOG_SELECT.replace('{window}', ''))) {
        yield rows
          .map((r) =>
            csvLine([r.id, r.user_id, r.user_email, r.log_type, r.log_value, isoMillis(r.created_at)]),
          )
          .join('');
      }
    },
  };
}

export type EventLog = ReturnType<typeof createEventLog>;
