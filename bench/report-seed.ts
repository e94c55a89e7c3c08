// The report bench's data, made by ClickHouse's own numbers() generator (bench/report-queries.ts and the reporting
// scenario): registrations spread over two years, five kinds of activity over 23 months, seven check-in questions.
import type { QueryParams } from '../services/reporting/src/analytics';

export async function seedReportEvents(
  analytics: { exec(sql: string, params?: QueryParams): Promise<void> },
  users: number,
  events: number,
): Promise<void> {
  await analytics.exec(
    `INSERT INTO events (id, type, stream, user_id, user_email, occurred_at, log_type, log_value, template_id,
       subject_id, question_id, send_id, channel, metadata, data)
     SELECT concat('benchreg-', toString(number)), 'auth.UserRegistered.v1', '', concat('benchuser-', toString(number)),
       '', toDateTime64('2025-01-01 00:00:00', 3, 'UTC') + toIntervalSecond(number % (86400 * 700)), 'sign_up', '',
       '', '', '', '', '', map(), '{}'
     FROM numbers({users:UInt64})`,
    { users },
  );
  await analytics.exec(
    `INSERT INTO events (id, type, stream, user_id, user_email, occurred_at, log_type, log_value, template_id,
       subject_id, question_id, send_id, channel, metadata, data)
     SELECT concat('bench-', toString(number)),
       ['auth.UserSignedIn.v1', 'content.PostOpened.v1', 'engagement.LikeSet.v1',
        'engagement.CheckinQuestionSent.v1', 'engagement.CheckinAnswered.v1'][(number % 5) + 1] AS type,
       '', concat('benchuser-', toString(cityHash64(number) % {users:UInt64})), '',
       toDateTime64('2025-01-01 00:00:00', 3, 'UTC') + toIntervalSecond(cityHash64(number, 1) % (86400 * 690)),
       '', '', '', '', concat('benchq-', toString(number % 7)), '', '', map(), '{}'
     FROM numbers({events:UInt64})`,
    { events, users },
  );
}

/**
 * Merges the seeded tables' parts now (OPTIMIZE ... FINAL), so the measurement reads settled data (one row per user
 * and month, as a store that has held its events for a while has them) and no background merge of the seed's parts
 * competes with it. (Waiting for system.merges to be empty did not do this: right after the seed no merge is
 * running yet, and the parts were merged minutes later, during the measurement.)
 */
export async function settleReportTables(
  analytics: { exec(sql: string, params?: QueryParams): Promise<void> },
  /** After a set's first fill only its tables changed: `events` and the per-user tables are merged already. */
  setsOnly = false,
): Promise<void> {
  const tables = ['report_set_months', 'report_set_users', 'report_set_periods'];
  if (!setsOnly) tables.unshift('events', 'report_user_months', 'report_users');
  for (const table of tables) await analytics.exec(`OPTIMIZE TABLE ${table} FINAL`);
}
