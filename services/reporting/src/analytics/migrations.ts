import type { AnalyticsStore } from './types';

/**
 * The reporting schema as numbered migrations, applied in order at start (and by `npm run -w @nudge/reporting
 * migrate` in the container topology) and recorded in `schema_migrations`. One SQL text for chDB and the server.
 * Never edit an applied migration: add the next number.
 */
export interface Migration {
  version: number;
  name: string;
  statements: string[];
}

/** Event types that count as a reader's activity (Active People). */
export const ACTIVITY_TYPES = [
  'auth.UserSignedIn.v1',
  'content.PostOpened.v1',
  'engagement.LikeSet.v1',
  'engagement.CommentAdded.v1',
  'engagement.CheckinAnswered.v1',
  'engagement.ReminderOpened.v1',
  'engagement.ReminderClicked.v1',
  'reporting.WebEvent',
  'engagement.WebEvent.v1',
] as const;

const sqlList = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'events, users, questions, monthly activity',
    statements: [
      // Append-only log of every domain event and web event. Redeliveries carry the same id and the same sort
      // key, so ReplacingMergeTree folds them; reads that list rows use FINAL, counts use uniqExact(id).
      `CREATE TABLE IF NOT EXISTS events (
        id String,
        type LowCardinality(String),
        stream String,
        user_id String,
        user_email String,
        occurred_at DateTime64(3, 'UTC'),
        log_type LowCardinality(String),
        log_value String,
        template_id String,
        subject_id String,
        question_id String,
        send_id String,
        channel LowCardinality(String),
        metadata Map(String, String),
        data String
      ) ENGINE = ReplacingMergeTree
      PARTITION BY toYYYYMM(occurred_at)
      ORDER BY (occurred_at, id)`,
      // Who registered when (Unique People), folded per user.
      `CREATE TABLE IF NOT EXISTS users (
        user_id String,
        email String,
        registered_at DateTime64(3, 'UTC')
      ) ENGINE = ReplacingMergeTree
      ORDER BY user_id`,
      `CREATE MATERIALIZED VIEW IF NOT EXISTS users_mv TO users AS
        SELECT user_id, JSONExtractString(data, 'email') AS email, occurred_at AS registered_at
        FROM events WHERE type = 'auth.UserRegistered.v1' AND user_id != ''`,
      // The check-in questions as they stand (last edit wins).
      `CREATE TABLE IF NOT EXISTS questions (
        question_id String,
        body String,
        scale LowCardinality(String),
        updated_at DateTime64(3, 'UTC')
      ) ENGINE = ReplacingMergeTree(updated_at)
      ORDER BY question_id`,
      `CREATE MATERIALIZED VIEW IF NOT EXISTS questions_mv TO questions AS
        SELECT question_id, JSONExtractString(data, 'body') AS body, JSONExtractString(data, 'scale') AS scale,
          occurred_at AS updated_at
        FROM events
        WHERE type IN ('engagement.CheckinQuestionAdded.v1', 'engagement.CheckinQuestionUpdated.v1')`,
      // Precomputed per (user, month): the viewer reads this, never the raw log. States of uniqExact(event id)
      // make a redelivered event count once.
      `CREATE TABLE IF NOT EXISTS activity_monthly (
        user_id String,
        month Date,
        kind LowCardinality(String),
        question_id String,
        events AggregateFunction(uniqExact, String)
      ) ENGINE = AggregatingMergeTree
      ORDER BY (user_id, month, kind, question_id)`,
      `CREATE MATERIALIZED VIEW IF NOT EXISTS activity_monthly_mv TO activity_monthly AS
        SELECT user_id, toStartOfMonth(occurred_at) AS month, kind,
          if(kind = 'active', '', question_id) AS question_id, uniqExactState(id) AS events
        FROM events
        ARRAY JOIN multiIf(
          type = 'engagement.CheckinQuestionSent.v1', ['q_sent'],
          type = 'engagement.CheckinAnswered.v1', ['active', 'q_answered'],
          type IN (${sqlList(ACTIVITY_TYPES)}), ['active'],
          []) AS kind
        WHERE user_id != ''
        GROUP BY user_id, month, kind, question_id`,
      // How far the backfill from each service's event history got (a wiped store starts again from 0).
      `CREATE TABLE IF NOT EXISTS backfill_cursors (
        service String,
        after UInt64,
        done Bool,
        at DateTime64(3, 'UTC')
      ) ENGINE = ReplacingMergeTree(at)
      ORDER BY service`,
    ],
  },
];

/** Applies every migration not yet recorded, in order. Returns the versions applied now. */
export async function migrate(store: AnalyticsStore): Promise<number[]> {
  await store.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version UInt32,
    name String,
    applied_at DateTime64(3, 'UTC')
  ) ENGINE = ReplacingMergeTree ORDER BY version`);
  const done = new Set(
    (await store.query<{ version: number }>('SELECT version FROM schema_migrations FINAL')).map((r) =>
      Number(r.version),
    ),
  );
  const applied: number[] = [];
  for (const migration of [...MIGRATIONS].sort((a, b) => a.version - b.version)) {
    if (done.has(migration.version)) continue;
    for (const statement of migration.statements) await store.exec(statement);
    await store.insert('schema_migrations', [
      { version: migration.version, name: migration.name, applied_at: new Date().toISOString() },
    ]);
    applied.push(migration.version);
  }
  return applied;
}
