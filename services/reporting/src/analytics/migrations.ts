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

/** Rows of `report_activity` from events (its view and the fill of migration 2 share it). */
const REPORT_ACTIVITY_SELECT = `SELECT toStartOfMonth(occurred_at) AS month, cityHash64(user_id) AS user_key,
    if(k = 'active', '', question_id) AS question_id, max(k = 'active') AS active,
    groupUniqArrayIf(cityHash64(id), k = 'q_sent') AS sent, groupUniqArrayIf(cityHash64(id), k = 'q_answered') AS answered
  FROM events
  ARRAY JOIN multiIf(
    type = 'engagement.CheckinQuestionSent.v1', ['q_sent'],
    type = 'engagement.CheckinAnswered.v1', ['active', 'q_answered'],
    type IN (${sqlList(ACTIVITY_TYPES)}), ['active'],
    []) AS k
  WHERE user_id != ''
  GROUP BY month, user_key, question_id`;

/** Rows of `report_users` from events: a user's registration and the questions sent to them. */
const REPORT_USERS_SELECT = `SELECT cityHash64(user_id) AS user_key,
    min(if(type = 'auth.UserRegistered.v1', toNullable(occurred_at), NULL)) AS registered_at,
    groupUniqArrayIf(question_id, type = 'engagement.CheckinQuestionSent.v1') AS questions
  FROM events
  WHERE type IN ('auth.UserRegistered.v1', 'engagement.CheckinQuestionSent.v1') AND user_id != ''
  GROUP BY user_key`;

/**
 * Rows of `report_user_months` from events: one per (month, hashed user) with the activity flag and the sends and
 * answers as sets of (question id, event-id hash) pairs (its view and the fill of migration 3 share it).
 */
const REPORT_USER_MONTHS_SELECT = `SELECT toStartOfMonth(occurred_at) AS month, cityHash64(user_id) AS user_key,
    max(type IN (${sqlList(ACTIVITY_TYPES)})) AS active,
    groupUniqArrayIf((question_id, cityHash64(id)), type = 'engagement.CheckinQuestionSent.v1') AS sent,
    groupUniqArrayIf((question_id, cityHash64(id)), type = 'engagement.CheckinAnswered.v1') AS answered
  FROM events
  WHERE user_id != '' AND type IN ('engagement.CheckinQuestionSent.v1', ${sqlList(ACTIVITY_TYPES)})
  GROUP BY month, user_key`;

/**
 * Rows of `report_set_periods` from rows of report_set_months (its view and the fill of migration 4 share it): per
 * set, month and question ('' = the users' activity), exact-distinct states of the active users and of the sends'
 * and answers' event hashes. The aliases are not the source's column names (an alias would hide the column).
 */
const REPORT_SET_PERIODS_SELECT = `SELECT set_id, month, e.1 AS question_id,
    uniqExactStateIf(user_key, e.3 = 0) AS people,
    uniqExactStateIf(e.2, e.3 = 1) AS sends,
    uniqExactStateIf(e.2, e.3 = 2) AS answers
  FROM report_set_months
  ARRAY JOIN arrayConcat(if(active = 1, [('', toUInt64(0), 0)], []), arrayMap(x -> (x.1, x.2, 1), sent),
    arrayMap(x -> (x.1, x.2, 2), answered)) AS e
  GROUP BY set_id, month, question_id`;

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
  {
    version: 2,
    name: 'report activity keyed by month and hashed user, report users (registration, questions sent)',
    statements: [
      // The viewer's read: one row per (month, user, question) ('' = the user's activity that month), keyed by
      // month first so a page reads its months only. Users and events are 64-bit hashes (cityHash64 of the id, the
      // way uniqExact itself hashes strings; a collision among the few thousand ids one figure counts is ~1e-11):
      // the monitored-user filter tests numbers, and sends and answers are plain sets of event hashes (a
      // redelivered event adds nothing) that the read counts with uniqExactArray, no aggregate states to decode.
      `CREATE TABLE IF NOT EXISTS report_activity (
        month Date,
        user_key UInt64,
        question_id LowCardinality(String),
        active SimpleAggregateFunction(max, UInt8),
        sent SimpleAggregateFunction(groupUniqArrayArray, Array(UInt64)),
        answered SimpleAggregateFunction(groupUniqArrayArray, Array(UInt64))
      ) ENGINE = AggregatingMergeTree
      ORDER BY (month, user_key, question_id)`,
      `CREATE MATERIALIZED VIEW IF NOT EXISTS report_activity_mv TO report_activity AS ${REPORT_ACTIVITY_SELECT}`,
      // Per user (keyed like report_activity): the registration (Unique People, the first period) and every
      // question ever sent to them (the viewer's question list), so one read of the monitored users gives both.
      `CREATE TABLE IF NOT EXISTS report_users (
        user_key UInt64,
        registered_at SimpleAggregateFunction(min, Nullable(DateTime64(3, 'UTC'))),
        questions SimpleAggregateFunction(groupUniqArrayArray, Array(String))
      ) ENGINE = AggregatingMergeTree
      ORDER BY user_key`,
      `CREATE MATERIALIZED VIEW IF NOT EXISTS report_users_mv TO report_users AS ${REPORT_USERS_SELECT}`,
      // A store that already holds events fills both from the log (an event also seen by the views while this
      // runs is a set element or a minimum again: nothing doubles).
      `INSERT INTO report_activity ${REPORT_ACTIVITY_SELECT}`,
      `INSERT INTO report_users ${REPORT_USERS_SELECT}`,
      // The per-user aggregate states of version 1 are no longer read.
      'DROP VIEW IF EXISTS activity_monthly_mv',
      'DROP TABLE IF EXISTS activity_monthly',
    ],
  },
  {
    version: 3,
    name: 'report user months: one row per month and hashed user',
    statements: [
      // The viewer's read since version 3: one row per (month, user) (version 2 had one per question as well), keyed
      // by month so a page reads its months only: about users x page months rows, filtered by the report's set of
      // user hashes (the read turns off the primary-key analysis of that set: with thousands of hashes it cost
      // ten times the scan it would save). Quarters are folded from months at read time. Sends and answers are sets
      // of (question, event-id hash): a redelivered event (same id) is the same element, so neither the view nor
      // the merges can double a figure.
      `CREATE TABLE IF NOT EXISTS report_user_months (
        month Date,
        user_key UInt64,
        active SimpleAggregateFunction(max, UInt8),
        sent SimpleAggregateFunction(groupUniqArrayArray, Array(Tuple(String, UInt64))),
        answered SimpleAggregateFunction(groupUniqArrayArray, Array(Tuple(String, UInt64)))
      ) ENGINE = AggregatingMergeTree
      ORDER BY (month, user_key)`,
      `CREATE MATERIALIZED VIEW IF NOT EXISTS report_user_months_mv TO report_user_months AS ${REPORT_USER_MONTHS_SELECT}`,
      // A report's monitored users as a set (`set_id` = a digest of the sorted ids, so the same list is one set and
      // a changed list is a new one), and the rows of report_user_months of exactly those users, keyed by set first:
      // a page of a report reads its own rows only (monitored users x page months), never the other users'.
      // `report_sets` records the sets whose rows were filled from report_user_months; from then on the cascaded
      // view below keeps them current, on insert, joining each new block with the members.
      `CREATE TABLE IF NOT EXISTS report_members (
        set_id String,
        user_key UInt64
      ) ENGINE = ReplacingMergeTree
      ORDER BY (set_id, user_key)`,
      `CREATE TABLE IF NOT EXISTS report_sets (
        set_id String,
        filled_at DateTime64(3, 'UTC')
      ) ENGINE = ReplacingMergeTree
      ORDER BY set_id`,
      `CREATE TABLE IF NOT EXISTS report_set_months (
        set_id String,
        month Date,
        user_key UInt64,
        active SimpleAggregateFunction(max, UInt8),
        sent SimpleAggregateFunction(groupUniqArrayArray, Array(Tuple(String, UInt64))),
        answered SimpleAggregateFunction(groupUniqArrayArray, Array(Tuple(String, UInt64)))
      ) ENGINE = AggregatingMergeTree
      ORDER BY (set_id, month, user_key)`,
      `CREATE MATERIALIZED VIEW IF NOT EXISTS report_set_months_mv TO report_set_months AS
        SELECT m.set_id AS set_id, r.month AS month, r.user_key AS user_key, r.active AS active, r.sent AS sent,
          r.answered AS answered
        FROM report_user_months AS r INNER JOIN report_members AS m ON r.user_key = m.user_key`,
      // The same for report_users: each set's members' registration and questions ever sent, keyed by set.
      `CREATE TABLE IF NOT EXISTS report_set_users (
        set_id String,
        user_key UInt64,
        registered_at SimpleAggregateFunction(min, Nullable(DateTime64(3, 'UTC'))),
        questions SimpleAggregateFunction(groupUniqArrayArray, Array(String))
      ) ENGINE = AggregatingMergeTree
      ORDER BY (set_id, user_key)`,
      `CREATE MATERIALIZED VIEW IF NOT EXISTS report_set_users_mv TO report_set_users AS
        SELECT m.set_id AS set_id, r.user_key AS user_key, r.registered_at AS registered_at, r.questions AS questions
        FROM report_users AS r INNER JOIN report_members AS m ON r.user_key = m.user_key`,
      // An existing store fills it from the log (events the view also sees meanwhile are set elements again).
      `INSERT INTO report_user_months ${REPORT_USER_MONTHS_SELECT}`,
      // The month-first table of version 2 is no longer read.
      'DROP VIEW IF EXISTS report_activity_mv',
      'DROP TABLE IF EXISTS report_activity',
    ],
  },
  {
    version: 4,
    name: 'report set periods: per set, month and question, exact-distinct states',
    statements: [
      // The viewer's read since version 4: a page reads (months x questions) rows of its own set, never a row per
      // user. Kept current by a view on report_set_months (which its own views keep current from every insert),
      // so a set's first fill fills this as well. Quarters merge three months' states: a user active in two of
      // them counts once, a redelivered event (same hash) once.
      `CREATE TABLE IF NOT EXISTS report_set_periods (
        set_id String,
        month Date,
        question_id LowCardinality(String),
        people AggregateFunction(uniqExact, UInt64),
        sends AggregateFunction(uniqExact, UInt64),
        answers AggregateFunction(uniqExact, UInt64)
      ) ENGINE = AggregatingMergeTree
      ORDER BY (set_id, month, question_id)`,
      `CREATE MATERIALIZED VIEW IF NOT EXISTS report_set_periods_mv TO report_set_periods AS ${REPORT_SET_PERIODS_SELECT}`,
      `INSERT INTO report_set_periods ${REPORT_SET_PERIODS_SELECT}`,
    ],
  },
  {
    version: 5,
    name: "event log by user: a skip index on the events' user id",
    statements: [
      // The event log's user filter (the user id of the address asked for; rows hold no address) reads only the
      // granules whose bloom filter may hold the id, not the column of the whole log. New parts are indexed as they
      // are written; the parts already there are indexed by a background mutation.
      'ALTER TABLE events ADD INDEX IF NOT EXISTS by_user_id user_id TYPE bloom_filter(0.01) GRANULARITY 1',
      'ALTER TABLE events MATERIALIZE INDEX by_user_id',
    ],
  },
];

/** The migrations not applied to this store yet, in order (all of them when it has none). */
export async function pendingMigrations(
  store: AnalyticsStore,
  migrations: Migration[] = MIGRATIONS,
): Promise<Migration[]> {
  const exists = await store.query<{ result: number }>('EXISTS TABLE schema_migrations');
  const done = Number(exists[0]?.result ?? 0)
    ? new Set(
        (await store.query<{ version: number }>('SELECT version FROM schema_migrations FINAL')).map((r) =>
          Number(r.version),
        ),
      )
    : new Set<number>();
  return [...migrations].sort((a, b) => a.version - b.version).filter((m) => !done.has(m.version));
}

/** Applies every migration not yet recorded, in order (all of MIGRATIONS unless told). Returns the versions applied now. */
export async function migrate(
  store: AnalyticsStore,
  migrations: Migration[] = MIGRATIONS,
): Promise<number[]> {
  await store.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version UInt32,
    name String,
    applied_at DateTime64(3, 'UTC')
  ) ENGINE = ReplacingMergeTree ORDER BY version`);
  const applied: number[] = [];
  for (const migration of await pendingMigrations(store, migrations)) {
    for (const statement of migration.statements) await store.exec(statement);
    await store.insert('schema_migrations', [
      { version: migration.version, name: migration.name, applied_at: new Date().toISOString() },
    ]);
    applied.push(migration.version);
  }
  return applied;
}
