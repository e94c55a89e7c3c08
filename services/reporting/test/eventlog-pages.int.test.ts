import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DirectoryUser } from '@nudge/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalyticsStore, migrate, openChdbStore } from '../src/analytics';
import { createEventLog, EXACT_TOTAL_MAX } from '../src/app/event-log';

// More rows than the exact total covers, so pages past the middle are read from the other end. Two events share
// each second, so the id orders rows within a second.
const ROWS = EXACT_TOTAL_MAX + 50;
const idOf = (n: number) => `ev-${String(n).padStart(6, '0')}`;
const emailOf = (n: number) => `reader${n % 7}@example.com`;

let dir: string;
let analytics: AnalyticsStore;
let log: ReturnType<typeof createEventLog>;

/** The ids of the rows of `n` numbers (oldest first), as the log orders them. */
const ordered = (keep: (n: number) => boolean, order: 'asc' | 'desc') => {
  const ids = Array.from({ length: ROWS }, (_, n) => n)
    .filter(keep)
    .map(idOf);
  return order === 'asc' ? ids : ids.reverse();
};

const insertRows = (from: number, count: number) =>
  analytics.exec(
    `INSERT INTO events (id, type, stream, user_id, user_email, occurred_at, log_type, log_value, template_id,
       subject_id, question_id, send_id, channel, metadata, data)
     SELECT concat('ev-', leftPad(toString(number), 6, '0')), 'reporting.WebEvent.v1', '',
       concat('u', toString(number % 7)), '',
       toDateTime64('2026-01-01 00:00:00', 3, 'UTC') + toIntervalSecond(intDiv(number, 2)),
       if(number % 3 = 0, 'web_like_click', 'page_visit'), toString(number), '', '', '', '', '', map(), '{}'
     FROM numbers({from:UInt64}, {count:UInt64})`,
    { from, count },
  );

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'eventlog-pages-'));
  analytics = await openChdbStore(join(dir, 'clickhouse'));
  await migrate(analytics);
  // Redeliveries stay beside their first delivery, unmerged, as they are until a merge folds them.
  await analytics.exec('SYSTEM STOP MERGES events');
  await insertRows(0, ROWS);
  // Rows hold no address: the log adds each reader's from the user directory.
  log = createEventLog({
    analytics,
    directory: {
      byEmail: async (email) => {
        const n = /^reader(\d)@example\.com$/.exec(email)?.[1];
        return n === undefined ? null : ({ _id: `u${n}`, email } as DirectoryUser);
      },
      byIds: async (ids) =>
        new Map(
          ids.map((id) => [id, { _id: id, email: `reader${id.slice(1)}@example.com` } as DirectoryUser]),
        ),
    },
  });
}, 60_000);
afterAll(async () => {
  await analytics?.close?.();
  await rm(dir, { recursive: true, force: true });
});

describe('the event log at more rows than its exact total', () => {
  it('each page, also past the middle and the last, holds the rows of its place in both orders', async () => {
    for (const order of ['desc', 'asc'] as const) {
      const all = ordered(() => true, order);
      for (const page of [1, 2, 50, 51, 100, 101]) {
        const got = await log.page(page, 100, { order });
        expect(got.total).toBe(ROWS);
        expect(
          got.data.map((r) => r._id),
          `${order} page ${page}`,
        ).toEqual(all.slice((page - 1) * 100, page * 100));
      }
      expect((await log.page(102, 100, { order })).data).toEqual([]);
    }
  });

  it('a filtered page past the middle holds the rows of its place', async () => {
    const likes = ordered((n) => n % 3 === 0, 'desc');
    expect(likes.length).toBeLessThan(EXACT_TOTAL_MAX);
    const last = Math.ceil(likes.length / 10);
    const got = await log.page(last, 10, { eventType: 'web_like_click' });
    expect(got.total).toBe(likes.length);
    expect(got.data.map((r) => r._id)).toEqual(likes.slice((last - 1) * 10));
    const mine = await log.page(1, 5, { email: emailOf(3), order: 'asc' });
    expect(mine.data.map((r) => r._id)).toEqual(ordered((n) => n % 7 === 3, 'asc').slice(0, 5));
  });

  it('an event delivered again and not yet merged is listed once, and the pages around it do not repeat it', async () => {
    // Three redeliveries of rows on the boundary between the first and second page of 10, newest first.
    await insertRows(ROWS - 11, 2);
    await insertRows(ROWS - 11, 1);
    const first = await log.page(1, 10);
    const second = await log.page(2, 10);
    const ids = [...first.data, ...second.data].map((r) => r._id);
    expect(ids).toEqual(ordered(() => true, 'desc').slice(0, 20));
    // At most EXACT_TOTAL_MAX rows the total counts each event once (reader1's rows hold a redelivered one).
    const mine = await log.page(1, 10, { email: emailOf(ROWS - 11) });
    expect(mine.total).toBe(ordered((n) => n % 7 === (ROWS - 11) % 7, 'desc').length);
    expect(mine.data.map((r) => r._id)).toEqual(
      ordered((n) => n % 7 === (ROWS - 11) % 7, 'desc').slice(0, 10),
    );
  });
});
