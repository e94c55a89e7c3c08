import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EngagementEvents } from '@nudge/contracts';
import { createEmbeddedStore, isEngineUnavailable, newId, topicFor, unavailable } from '@nudge/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsStore } from '../src/analytics';
import { createIntake } from '../src/app/intake';
import { createSetAside } from '../src/app/set-aside';
import { type EventRow, webEventRow } from '../src/domain/rows';
import { createEventWriter } from '../src/events/ingest';
import { type Harness, log, startReporting } from './harness';

// A record no insert will ever take is set aside with its error and counted; it never blocks the records behind it,
// in any of reporting's pipelines (the intake spool, the bus ingest, the backfill's inserts share one writer).

let h: Harness;
beforeAll(async () => {
  h = await startReporting();
});
afterAll(() => h?.close());

const row = (value: string, over: Partial<EventRow> = {}): EventRow => ({
  ...webEventRow(newId(), '2026-11-20 12:00:00.000', undefined, {
    eventType: 'page_visit',
    eventValue: value,
  }),
  ...over,
});

const idsIn = async (ids: string[]) =>
  (
    await h.analytics.query<{ id: string }>(
      'SELECT id FROM events WHERE id IN {ids:Array(String)} ORDER BY id',
      {
        ids,
      },
    )
  ).map((r) => r.id);

const setAsideIds = async () => (await h.service.setAside.list()).map((d) => d._id);

describe('the event writer (every pipeline inserts through it)', () => {
  it('sets aside rows whose text is not valid Unicode, before the engine: a lone high surrogate (refused) and a lone low one (stored corrupted)', async () => {
    const good = [row('/a'), row('/b')];
    const high = row('x\ud800');
    const low = row('ok', { metadata: { path: 'y\udc00' } });
    await h.service.writer.write([good[0] as EventRow, high, low, good[1] as EventRow], 'bus');
    expect(await idsIn([...good, high, low].map((r) => r.id))).toEqual(good.map((r) => r.id).sort());
    const docs = await h.service.setAside.list('bus');
    const byId = new Map(docs.map((d) => [d._id, d]));
    expect(byId.get(`bus:${high.id}`)?.error).toBe(
      'log_value in the row is not valid Unicode text (it holds a lone surrogate)',
    );
    expect(byId.get(`bus:${low.id}`)?.error).toBe(
      'metadata.path in the row is not valid Unicode text (it holds a lone surrogate)',
    );
    // the record is kept as it came (JSON escapes the lone surrogate), to look at or load by hand once fixed
    expect(JSON.parse(byId.get(`bus:${high.id}`)?.record ?? '{}').log_value).toBe('x\ud800');
  });

  it('splits a batch the engine refuses to find the row it refuses on its own; the others go in', async () => {
    const rows = Array.from({ length: 9 }, (_, i) => row(`/split/${i}`));
    const refused = row('/refused', { occurred_at: 'not a time at all' });
    rows.splice(5, 0, refused);
    await h.service.writer.write(rows, 'backfill');
    const others = rows.filter((r) => r !== refused).map((r) => r.id);
    expect(await idsIn(rows.map((r) => r.id))).toEqual([...others].sort());
    const [doc] = (await h.service.setAside.list('backfill')).filter(
      (d) => d._id === `backfill:${refused.id}`,
    );
    expect(doc?.error).toMatch(/occurred_at|DateTime|parse/i);
  });

  it('an engine outage is no bad row: the error is thrown, nothing is set aside, the caller retries later', async () => {
    const store = createEmbeddedStore({});
    const setAside = createSetAside(store);
    const down = {
      insert: async () => {
        throw unavailable('The analytics engine stopped unexpectedly; please try again');
      },
      ping: async () => {
        throw new Error('connection refused');
      },
    } as unknown as AnalyticsStore;
    const writer = createEventWriter({ analytics: down, setAside, log });
    const thrown = await writer.write([row('/1'), row('/2')], 'web').catch((err: unknown) => err);
    expect(String(thrown)).toMatch(/stopped unexpectedly/);
    // Marked as an outage: the bus pauses the consumer with the batch rather than split and dead-letter it.
    expect(isEngineUnavailable(thrown)).toBe(true);
    const refusing = {
      ...down,
      insert: async () => Promise.reject(new Error('Code: 210. Connection reset')),
    };
    await expect(
      createEventWriter({ analytics: refusing as AnalyticsStore, setAside, log }).write([row('/3')], 'web'),
    ).rejects.toThrow(/Connection reset/);
    expect((await setAside.counts()).total).toBe(0);
    await store.close();
  });
});

describe('the intake spool', () => {
  it('a poison line in the spool is set aside; the lines and files behind it are loaded', async () => {
    const dir = join(h.dir, 'poisoned-spool');
    await mkdir(dir, { recursive: true });
    const before = [row('/before')];
    const after = [row('/after-1'), row('/after-2')];
    const poison = row('x\ud800');
    const lines = (rows: EventRow[]) => rows.map((r) => `${JSON.stringify(r)}\n`).join('');
    await writeFile(
      join(dir, 'batch-1-1.ndjson'),
      `${lines(before)}${lines([poison])}not json at all\n${lines(after)}`,
    );
    const later = row('/later-file');
    await writeFile(join(dir, 'batch-2-1.ndjson'), lines([later]));
    // what an earlier process had spooled and not moved aside
    const current = row('/current');
    await writeFile(join(dir, 'current.ndjson'), lines([current]));
    const intake = createIntake({
      dir,
      analytics: h.analytics,
      writer: h.service.writer,
      log,
      flushMs: 3_600_000,
    });
    await intake.start();
    await intake.flush();
    const all = [...before, ...after, later, current];
    expect(await idsIn([...all, poison].map((r) => r.id))).toEqual(all.map((r) => r.id).sort());
    expect(await readdir(dir)).toEqual([]);
    const ids = await setAsideIds();
    expect(ids).toContain(`web:${poison.id}`);
    const notJson = (await h.service.setAside.list('web')).find((d) => d.record === 'not json at all');
    expect(notJson?.error).toBe('not a JSON row');
    await intake.stop();
  });

  it('start does not wait for a load that cannot finish (the engine hangs): the process comes up', async () => {
    const dir = join(h.dir, 'hanging-spool');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'batch-1-1.ndjson'), `${JSON.stringify(row('/stuck'))}\n`);
    const hanging = {
      insertJsonLines: () => new Promise<void>(() => undefined),
      insert: () => new Promise<void>(() => undefined),
      ping: async () => undefined,
    } as unknown as AnalyticsStore;
    const intake = createIntake({
      dir,
      analytics: hanging,
      writer: createEventWriter({ analytics: hanging, setAside: h.service.setAside, log }),
      log,
      flushMs: 3_600_000,
    });
    const started = await Promise.race([
      intake.start().then(() => 'started'),
      new Promise((resolve) => setTimeout(() => resolve('still starting'), 3_000)),
    ]);
    expect(started).toBe('started');
    // the accepted events stay on disk for the next load
    expect(await readdir(dir)).toContain('batch-1-1.ndjson');
  });
});

describe('the bus ingest', () => {
  it('an event whose text can never be stored and a message that is not an event are set aside; the batch is committed and the events behind them go in', async () => {
    const web = (value: string) =>
      h.event(
        EngagementEvents.WebEvent,
        {
          userId: null,
          userEmail: null,
          eventType: 'page_visit',
          eventValue: value,
          metadata: {},
          receivedAt: '2026-11-20T12:00:00.000Z',
        },
        '2026-11-20T12:00:00.000Z',
      );
    const first = web('/bus-before');
    const poison = web('x\udbff');
    const last = web('/bus-after');
    await h.bus.publish([{ topic: topicFor('engagement'), key: 'k', value: 'not an envelope', headers: {} }]);
    await h.publish('engagement', [first, poison, last]);
    expect(await idsIn([first.id, poison.id, last.id])).toEqual([first.id, last.id].sort());
    const docs = await h.service.setAside.list('bus');
    expect(docs.find((d) => d._id === `bus:${poison.id}`)?.error).toMatch(/not valid Unicode/);
    expect(docs.find((d) => d.record === 'not an envelope')?.error).toBe('not an event envelope');
    expect(await h.bus.deadLetters()).toEqual([]);
    const counts = await h.service.setAside.counts();
    expect(counts.sources.bus).toBeGreaterThanOrEqual(3);
    expect(counts.total).toBe(counts.sources.bus + counts.sources.web + counts.sources.backfill);
  });
});
