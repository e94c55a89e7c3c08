import { AuthEvents, EngagementEvents, EventSchemaError } from '@nudge/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runWithContext } from '../context';
import { type AppError, ConcurrencyError } from '../errors';
import { createEmbeddedStore } from '../store/embedded';
import type { Doc, DocumentStore } from '../store/types';
import {
  type CommitDoc,
  EVENTS,
  EVENTS_META,
  groupRowOf,
  ORPHAN_MS,
  PENDING,
  type PendingDoc,
  PROJECTION_CHECKPOINTS,
  pendingId,
  pendingOf,
  pendingRange,
  toStored,
} from './commits';
import { createEventStore, type ServiceEventStore } from './event-store';
import { createRelay } from './relay';
import { counterProjection, pendingCommits, readCounters, silentLog } from './testing';
import type { AppendManyEntry, BusMessage, EventBus, EventEnvelope, Projection } from './types';

const collect = async (events: AsyncIterable<EventEnvelope>) => {
  const out: EventEnvelope[] = [];
  for await (const e of events) out.push(e);
  return out;
};

describe('event store on the embedded document store', () => {
  let store: DocumentStore;
  let events: ServiceEventStore;

  beforeEach(() => {
    store = createEmbeddedStore();
    events = createEventStore({
      store,
      service: 'test',
      clock: () => new Date('2025-01-02T03:04:05.000Z'),
      log: silentLog(),
      pageSize: 3,
      // This suite's event types are the mechanism's own, not the contracts' (those are checked below).
      validate: () => {},
    });
  });
  afterEach(async () => {
    events.close();
    await store.close();
  });

  it('appends a commit as envelopes with ids, versions, actor, request id and JSON data', async () => {
    const stored = await runWithContext({ requestId: 'req-1', actor: 'user-9' }, () =>
      events.append('order-1', 0, [
        {
          type: 'test.Created.v1',
          data: { at: new Date('2025-01-01T00:00:00Z'), 'a.b': 1, $x: 2, none: undefined },
        },
        { type: 'test.Named.v1', data: { name: 'x' } },
      ]),
    );
    expect(stored).toHaveLength(2);
    expect(stored[0]).toMatchObject({
      type: 'test.Created.v1',
      stream: 'order-1',
      version: 1,
      occurredAt: '2025-01-02T03:04:05.000Z',
      actor: 'user-9',
      data: { at: '2025-01-01T00:00:00.000Z', 'a.b': 1, $x: 2 },
      meta: { requestId: 'req-1' },
    });
    expect(stored[1]?.version).toBe(2);
    expect(stored[0]?.id).toMatch(/^[0-9a-f]{24}$/);
    expect(stored[0]?.id).not.toBe(stored[1]?.id);
    expect(await events.readStream('order-1')).toEqual(stored);

    const [withOptions] = await events.append('order-1', 2, [{ type: 'test.Named.v1', data: {} }], {
      actor: null,
      requestId: 'req-2',
    });
    expect(withOptions).toMatchObject({ version: 3, actor: null, meta: { requestId: 'req-2' } });

    const commits = await store.collection<CommitDoc>(EVENTS).find({}, { sort: { seq: 1 } });
    expect(commits.map((c) => [c._id, c.fromVersion, c.toVersion])).toEqual([
      ['order-1@0', 0, 2],
      ['order-1@2', 2, 3],
    ]);
    expect(commits[1]!.seq).toBeGreaterThan(commits[0]!.seq);
    // Both wait for a relay (none runs here); no projection is registered, so nothing waits for one. The commit
    // documents carry no marks: they are written once.
    expect(await pendingCommits(store)).toEqual({ unpublished: ['order-1@0', 'order-1@2'], unprojected: [] });
    expect(commits.every((c) => !('published' in c) && !('projected' in c))).toBe(true);
  });

  it('refuses a stale, a future or a taken expectedVersion with ConcurrencyError (409)', async () => {
    await events.append('s', 0, [
      { type: 't', data: 1 },
      { type: 't', data: 2 },
    ]);
    for (const stale of [0, 1, 3]) {
      const err = await events.append('s', stale, [{ type: 't', data: 3 }]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConcurrencyError);
      expect((err as AppError).httpStatus).toBe(409);
    }
    expect((await events.readStream('s')).map((e) => e.version)).toEqual([1, 2]);
  });

  it("finds a stream's head and events by the commits' _ids: after commits of several events, past version 10, beside a stream named <stream>@...", async () => {
    // 's' and 's@1' (whose commit _ids, `s@1@<n>`, fall in the range of 's@...'), each with a commit of two events.
    for (const stream of ['s', 's@1']) {
      await events.append(stream, 0, [
        { type: 't', data: `${stream} 1` },
        { type: 't', data: `${stream} 2` },
      ]);
      for (let version = 2; version < 12; version++)
        await events.append(stream, version, [{ type: 't', data: `${stream} ${version + 1}` }]);
      await events.append(stream, 12, [
        { type: 't', data: `${stream} 13` },
        { type: 't', data: `${stream} 14` },
      ]);
      await events.append(stream, 14, [{ type: 't', data: `${stream} 15` }]);
    }
    for (const stream of ['s', 's@1']) {
      const read = await events.readStream(stream);
      expect(read.map((e) => e.version)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
      expect(read.map((e) => e.data)).toEqual(Array.from({ length: 15 }, (_, i) => `${stream} ${i + 1}`));
      // Inside a commit of several events (1, 13), the head (15 is; 14 and 2 are taken) or past it: refused.
      for (const stale of [1, 2, 13, 14, 16]) {
        const err = await events.append(stream, stale, [{ type: 't', data: 'x' }]).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ConcurrencyError);
      }
    }
  });

  it('lets exactly one of two concurrent appends at the same version win', async () => {
    await events.append('race', 0, [{ type: 't', data: 0 }]);
    const results = await Promise.allSettled([
      events.append('race', 1, [{ type: 't', data: 'a' }]),
      events.append('race', 1, [{ type: 't', data: 'b' }]),
      events.append('race', 1, [{ type: 't', data: 'c' }]),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(rejected).toHaveLength(2);
    for (const r of rejected) expect(r.reason).toBeInstanceOf(ConcurrencyError);
    expect((await events.readStream('race')).map((e) => e.version)).toEqual([1, 2]);
    // The losers' pending rows (written in the same group commit as their insert) are gone: one row per commit.
    const commits = await store.collection<CommitDoc>(EVENTS).find({}, { sort: { seq: 1 } });
    const rows = await store.collection<PendingDoc>(PENDING).find(pendingRange('pub'), { sort: { _id: 1 } });
    expect(rows.map((row) => [row.commit, row.seq])).toEqual(commits.map((c) => [c._id, c.seq]));
    expect(await store.collection(PENDING).countDocuments(pendingRange('proj'))).toBe(0);
  });

  it('reads every event in commit order, paging through commits', async () => {
    for (let i = 0; i < 5; i++) {
      await events.append(`a`, i, [{ type: 't', data: `a${i}` }]);
      await events.append(`b`, i * 2, [
        { type: 't', data: `b${i}.1` },
        { type: 't', data: `b${i}.2` },
      ]);
    }
    const all = await collect(events.readAll());
    expect(all).toHaveLength(15);
    expect(all.map((e) => e.data).slice(0, 6)).toEqual(['a0', 'b0.1', 'b0.2', 'a1', 'b1.1', 'b1.2']);
    expect(all.filter((e) => e.stream === 'b').map((e) => e.version)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
  });

  describe('projections', () => {
    it('are applied before append resolves (read-your-writes)', async () => {
      events.register(counterProjection(store));
      await events.append('p-1', 0, [
        { type: 'A', data: {} },
        { type: 'B', data: {} },
      ]);
      expect(await readCounters(store)).toEqual([
        { _id: 'p-1', count: 2, lastVersion: 2, types: ['A', 'B'] },
      ]);
    });

    it('rebuild after the read model is dropped equals the live state', async () => {
      const projection = counterProjection(store);
      events.register(projection);
      await events.catchUp();
      for (let i = 0; i < 7; i++) {
        await events.append(`s-${i % 3}`, Math.floor(i / 3) * 2, [
          { type: `T${i}`, data: i },
          { type: `U${i}`, data: i },
        ]);
      }
      const live = await readCounters(store);
      expect(live).toHaveLength(3);

      await store.collection('counters').drop();
      expect(await readCounters(store)).toEqual([]);
      await events.rebuild();
      expect(await readCounters(store)).toEqual(live);

      // named rebuild, and the checkpoints written by it keep later appends exact
      await events.rebuild('test.counter');
      expect(await readCounters(store)).toEqual(live);
      await events.append('s-0', 6, [{ type: 'V', data: null }]);
      const after = await readCounters(store);
      expect(after.find((c) => c._id === 's-0')).toMatchObject({ count: 7, lastVersion: 7 });
      await expect(events.rebuild('nope')).rejects.toThrow(/no projection named nope/);
    });

    it('catchUp applies a commit left unprojected by a crash, exactly once', async () => {
      const projection = counterProjection(store);
      events.register(projection);
      await events.catchUp();
      await events.append('c-1', 0, [{ type: 'A', data: 1 }]);

      // A crash between the insert and the projection leaves this behind.
      const orphan: EventEnvelope = {
        id: 'e-orphan',
        type: 'B',
        stream: 'c-1',
        version: 2,
        occurredAt: '2025-01-02T03:04:05.000Z',
        actor: null,
        data: 2,
        meta: {},
      };
      const left: CommitDoc = {
        _id: 'c-1@1',
        stream: 'c-1',
        fromVersion: 1,
        toVersion: 2,
        events: [toStored(orphan)],
        committedAt: orphan.occurredAt,
        seq: 1000,
      };
      await store.collection<CommitDoc>(EVENTS).insertOne(left);
      await store
        .collection(PENDING)
        .insertMany([pendingOf(left, 'pub', Date.now()), pendingOf(left, 'proj', Date.now())]);
      expect(await readCounters(store)).toEqual([{ _id: 'c-1', count: 1, lastVersion: 1, types: ['A'] }]);

      // a restarted process: new event store on the same store
      const restarted = createEventStore({ store, service: 'test', log: silentLog(), validate: () => {} });
      const again = counterProjection(store);
      restarted.register(again);
      expect(await restarted.catchUp()).toBe(1);
      expect(await readCounters(store)).toEqual([
        { _id: 'c-1', count: 2, lastVersion: 2, types: ['A', 'B'] },
      ]);
      expect(await restarted.catchUp()).toBe(0);
      expect(await readCounters(store)).toEqual([
        { _id: 'c-1', count: 2, lastVersion: 2, types: ['A', 'B'] },
      ]);
      expect(again.applied).toBe(1);
      expect((await pendingCommits(store)).unprojected).toEqual([]);
      restarted.close();
    });

    it('a projection that fails during append is caught up later without double-applying the others', async () => {
      const flaky = counterProjection(store, 'flaky', 'flaky_counters');
      const steady = counterProjection(store, 'steady', 'steady_counters');
      events.register(flaky);
      events.register(steady);
      await events.catchUp();

      flaky.failNext();
      const appended = await events.append('f-1', 0, [{ type: 'A', data: 1 }]); // resolves: the commit is durable
      expect(appended).toHaveLength(1);
      expect(await readCounters(store, 'flaky_counters')).toEqual([]);
      expect(await readCounters(store, 'steady_counters')).toEqual([
        { _id: 'f-1', count: 1, lastVersion: 1, types: ['A'] },
      ]);
      expect((await pendingCommits(store)).unprojected).toEqual(['f-1@0']);

      // The next commit on the stream brings the lagging projection up in order (it fills the gap first).
      await events.append('f-1', 1, [{ type: 'B', data: 2 }]);
      expect(await readCounters(store, 'flaky_counters')).toEqual([
        { _id: 'f-1', count: 2, lastVersion: 2, types: ['A', 'B'] },
      ]);

      expect(await events.catchUp()).toBe(1);
      expect(await readCounters(store, 'flaky_counters')).toEqual([
        { _id: 'f-1', count: 2, lastVersion: 2, types: ['A', 'B'] },
      ]);
      expect(await readCounters(store, 'steady_counters')).toEqual([
        { _id: 'f-1', count: 2, lastVersion: 2, types: ['A', 'B'] },
      ]);
      expect((await pendingCommits(store)).unprojected).toEqual([]);
      // One checkpoint per projection (the last commit sequence it applied), none per stream.
      const second = await store.collection<CommitDoc>(EVENTS).findOne({ _id: 'f-1@1' });
      expect(await store.collection(PROJECTION_CHECKPOINTS).find({}, { sort: { _id: 1 } })).toEqual([
        { _id: 'flaky', projection: 'flaky', seq: second!.seq },
        { _id: 'steady', projection: 'steady', seq: second!.seq },
      ]);
    });

    it('a projection registered after events exist is built from the whole store by catchUp', async () => {
      await events.append('n-1', 0, [{ type: 'A', data: 1 }]);
      await events.append('n-2', 0, [
        { type: 'B', data: 1 },
        { type: 'C', data: 1 },
      ]);
      const late = counterProjection(store);
      events.register(late);
      await events.catchUp();
      expect(await readCounters(store)).toEqual([
        { _id: 'n-1', count: 1, lastVersion: 1, types: ['A'] },
        { _id: 'n-2', count: 2, lastVersion: 2, types: ['B', 'C'] },
      ]);
      await events.catchUp();
      expect(late.applied).toBe(3);
    });

    it("a per-stream projection's commits of different streams are applied concurrently, each stream's in order", async () => {
      let inFlight = 0;
      let most = 0;
      const streamsInFlight = new Set<string>();
      const seen = new Map<string, number[]>();
      const projection: Projection = {
        name: 'slow.per-stream',
        concurrency: 'stream',
        async apply(event) {
          // Two commits of one stream never overlap.
          expect(streamsInFlight.has(event.stream)).toBe(false);
          streamsInFlight.add(event.stream);
          inFlight += 1;
          most = Math.max(most, inFlight);
          await new Promise((resolve) => setTimeout(resolve, 5));
          seen.set(event.stream, [...(seen.get(event.stream) ?? []), event.version]);
          inFlight -= 1;
          streamsInFlight.delete(event.stream);
        },
        async reset() {},
      };
      events.register(projection);
      const streams = Array.from({ length: 8 }, (_, i) => `ps-${i}`);
      await Promise.all(
        streams.map(async (stream) => {
          for (let v = 0; v < 3; v++) await events.append(stream, v, [{ type: 't', data: v }]);
        }),
      );
      expect(most).toBeGreaterThan(1);
      for (const stream of streams) expect(seen.get(stream)).toEqual([1, 2, 3]);
      expect((await pendingCommits(store)).unprojected).toEqual([]);
      expect(await store.collection<CommitDoc>(EVENTS).countDocuments({})).toBeGreaterThan(0);
    });

    it('a projection without concurrency is applied one commit at a time, whatever the streams', async () => {
      let inFlight = 0;
      let most = 0;
      events.register({
        name: 'slow.shared',
        async apply() {
          inFlight += 1;
          most = Math.max(most, inFlight);
          await new Promise((resolve) => setTimeout(resolve, 2));
          inFlight -= 1;
        },
        async reset() {},
      });
      await Promise.all(
        Array.from({ length: 10 }, (_, i) => events.append(`sh-${i}`, 0, [{ type: 't', data: i }])),
      );
      expect(most).toBe(1);
    });

    it('commits of the types a projection declares per stream run concurrently, the others alone, each stream in order', async () => {
      const running = new Set<string>();
      let mostReads = 0;
      let sharedBeside = 0;
      const seen = new Map<string, number[]>();
      events.register({
        name: 'mixed',
        streamTypes: ['read'],
        async apply(event) {
          // Two commits of one stream never overlap, whichever way each is applied.
          expect(running.has(event.stream)).toBe(false);
          if (event.type === 'shared' && running.size > 0) sharedBeside += 1;
          if (event.type === 'read' && [...running].some((s) => s.startsWith('sh-'))) sharedBeside += 1;
          running.add(event.stream);
          mostReads = Math.max(mostReads, [...running].filter((s) => s.startsWith('rd-')).length);
          await new Promise((resolve) => setTimeout(resolve, 3));
          seen.set(event.stream, [...(seen.get(event.stream) ?? []), event.version]);
          running.delete(event.stream);
        },
        async reset() {},
      });
      await Promise.all([
        ...Array.from({ length: 8 }, (_, i) => events.append(`rd-${i}`, 0, [{ type: 'read', data: i }])),
        ...Array.from({ length: 4 }, async (_, i) => {
          for (let v = 0; v < 2; v++) await events.append(`sh-${i}`, v, [{ type: 'shared', data: v }]);
        }),
        // A stream whose commits are applied both ways keeps its order.
        (async () => {
          await events.append('mx', 0, [{ type: 'shared', data: 0 }]);
          await events.append('mx', 1, [{ type: 'read', data: 1 }]);
        })(),
      ]);
      expect(mostReads).toBeGreaterThan(1);
      expect(sharedBeside).toBe(0);
      expect(seen.get('mx')).toEqual([1, 2]);
      for (let i = 0; i < 4; i++) expect(seen.get(`sh-${i}`)).toEqual([1, 2]);
      expect((await pendingCommits(store)).unprojected).toEqual([]);
      expect(await store.collection<CommitDoc>(EVENTS).countDocuments({})).toBeGreaterThan(0);
    });

    it('a commit waits for the earlier one of its stream when that one waits for the lock', async () => {
      const order: string[] = [];
      let releaseSlow = () => {};
      const slow = new Promise<void>((resolve) => {
        releaseSlow = resolve;
      });
      events.register({
        name: 'ordered',
        streamTypes: ['read'],
        async apply(event) {
          if (event.stream === 'hold') await slow;
          order.push(`${event.stream}@${event.version}`);
        },
        async reset() {},
      });
      // 'hold' holds the exclusive lock; s@1 (alone) queues behind it; s@2 (per stream) must not overtake s@1.
      const held = events.append('hold', 0, [{ type: 'shared', data: 0 }]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const first = events.append('s', 0, [{ type: 'shared', data: 1 }]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const second = events.append('s', 1, [{ type: 'read', data: 2 }]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      releaseSlow();
      await Promise.all([held, first, second]);
      expect(order).toEqual(['hold@1', 's@1', 's@2']);
    });
  });

  describe('pending rows', () => {
    const recordingBus = (published: BusMessage[]) =>
      ({
        kind: 'recording',
        async publish(messages: BusMessage[]) {
          published.push(...messages);
        },
      }) as unknown as EventBus;
    const commitOf = (stream: string, fromVersion: number, seq: number) => {
      const event: EventEnvelope = {
        id: `e-${stream}-${fromVersion}`,
        type: 'Old',
        stream,
        version: fromVersion + 1,
        occurredAt: '2024-01-01T00:00:00.000Z',
        actor: null,
        data: seq,
        meta: {},
      };
      return {
        _id: `${stream}@${fromVersion}`,
        stream,
        fromVersion,
        toVersion: fromVersion + 1,
        events: [toStored(event)],
        committedAt: event.occurredAt,
        seq,
      } satisfies CommitDoc;
    };

    it('orphan rows are deleted (a clashed commit) or skipped until ORPHAN_MS (a commit not written yet)', async () => {
      const projection = counterProjection(store);
      events.register(projection);
      await events.catchUp();
      await events.append('o-1', 0, [{ type: 'A', data: 1 }]);
      const [stored] = await store.collection<CommitDoc>(EVENTS).find({});
      for (const kind of ['pub', 'proj'] as const) {
        const clashed = { ...pendingOf(stored!, kind, Date.now()), _id: pendingId(kind, 900), seq: 900 };
        const inFlight = pendingOf(commitOf('o-2', 0, 901), kind, Date.now());
        const abandoned = pendingOf(commitOf('o-3', 0, 902), kind, Date.now() - ORPHAN_MS - 1_000);
        await store.collection<PendingDoc>(PENDING).insertMany([clashed, inFlight, abandoned]);
      }

      const published: BusMessage[] = [];
      const relay = createRelay({ store, bus: recordingBus(published), service: 'test', log: silentLog() });
      expect(await relay.flush()).toBe(1);
      expect(published.map((m) => m.key)).toEqual(['o-1']);
      await relay.stop();
      expect(await events.catchUp()).toBe(0);
      expect(projection.applied).toBe(1);
      // Only the row of the commit that may still be written stays, for the relay and for the projections.
      expect(await pendingCommits(store)).toEqual({ unpublished: ['o-2@0'], unprojected: ['o-2@0'] });

      // Its commit arrives: published and applied then.
      const late = commitOf('o-2', 0, 901);
      await store.collection<CommitDoc>(EVENTS).insertOne(late);
      const again = createRelay({ store, bus: recordingBus(published), service: 'test', log: silentLog() });
      expect(await again.flush()).toBe(1);
      await again.stop();
      expect(await events.catchUp()).toBe(1);
      expect(published.map((m) => m.key)).toEqual(['o-1', 'o-2']);
      expect((await readCounters(store)).map((c) => c._id)).toEqual(['o-1', 'o-2']);
      expect(await pendingCommits(store)).toEqual({ unpublished: [], unprojected: [] });
    });

    it('the one projection row of commits applied together: left by a crash, each is applied once, a later commit after it', async () => {
      const projection = counterProjection(store);
      events.register(projection);
      await events.catchUp();
      // A crash between an appendMany's insert and its projection leaves its commits (seqs 700-702: the counter says
      // so) and their one `proj` row.
      const left = [commitOf('t-1', 0, 700), commitOf('t-2', 0, 701), commitOf('t-3', 0, 702)];
      await store
        .collection<{ _id: string; value: number }>(EVENTS_META)
        .insertOne({ _id: 'seq', value: 702 });
      await store.collection<CommitDoc>(EVENTS).insertMany(left);
      await store.collection<PendingDoc>(PENDING).insertOne(groupRowOf(left, 'proj', Date.now()));
      expect((await pendingCommits(store)).unprojected).toEqual(['t-1@0', 't-2@0', 't-3@0']);

      // An append to t-2 before a catch-up ran: t-2's first commit is applied before it.
      await events.append('t-2', 1, [{ type: 'New', data: 1 }]);
      expect(await readCounters(store)).toEqual([
        { _id: 't-2', count: 2, lastVersion: 2, types: ['Old', 'New'] },
      ]);
      // Its row (now one per commit) says which projections applied t-2's first commit.
      expect((await pendingCommits(store)).unprojected).toEqual(['t-1@0', 't-2@0', 't-3@0']);
      const rows = await store
        .collection<PendingDoc>(PENDING)
        .find(pendingRange('proj'), { sort: { _id: 1 } });
      expect(rows.map((row) => [row.commit, row.projectedBy ?? []])).toEqual([
        ['t-1@0', []],
        ['t-2@0', [projection.name]],
        ['t-3@0', []],
      ]);

      // Catch-up applies the others once each (the counter projection is not idempotent).
      expect(await events.catchUp()).toBe(3);
      expect(await events.catchUp()).toBe(0);
      expect(projection.applied).toBe(4);
      expect((await readCounters(store)).map((c) => [c._id, c.count])).toEqual([
        ['t-1', 1],
        ['t-2', 2],
        ['t-3', 1],
      ]);
      expect((await pendingCommits(store)).unprojected).toEqual([]);
    });

    it('a relay row of commits appended together: published whole, in seq order; its missing commits wait', async () => {
      await events.append('g-1', 0, [{ type: 'A', data: 1 }]);
      const [stored] = await store.collection<CommitDoc>(EVENTS).find({});
      const inFlight = commitOf('g-2', 0, 901);
      // g-1's entry names another seq than its commit's (a clash).
      const row = groupRowOf(
        [{ ...stored!, seq: 900 }, inFlight, commitOf('g-3', 0, 902)],
        'pub',
        Date.now(),
      );
      await store.collection<PendingDoc>(PENDING).deleteMany(pendingRange('pub'));
      await store.collection<PendingDoc>(PENDING).insertOne(row);
      await store.collection<CommitDoc>(EVENTS).insertOne(commitOf('g-3', 0, 902));

      const published: BusMessage[] = [];
      const relay = createRelay({ store, bus: recordingBus(published), service: 'test', log: silentLog() });
      // g-1's entry names another seq (a clash): skipped; g-2 is not written yet: it waits, alone in the row.
      expect(await relay.flush()).toBe(1);
      expect(published.map((m) => m.key)).toEqual(['g-3']);
      expect((await pendingCommits(store)).unpublished).toEqual(['g-2@0']);

      await store.collection<CommitDoc>(EVENTS).insertOne(inFlight);
      expect(await relay.flush()).toBe(1);
      expect(published.map((m) => m.key)).toEqual(['g-3', 'g-2']);
      expect((await pendingCommits(store)).unpublished).toEqual([]);
      await relay.stop();
    });
  });

  describe('appendMany and group commit', () => {
    /**
     * The store, with a count of its operations per `collection.method`; `latencyMs` delays each answer, as a
     * round trip to MongoDB would (the embedded SQLite store answers at once, so nothing would overlap).
     */
    const counting = (inner: DocumentStore, latencyMs = 0) => {
      const counts = new Map<string, number>();
      const wrapped: DocumentStore = {
        kind: inner.kind,
        ping: () => inner.ping(),
        close: () => inner.close(),
        collection<T extends Doc>(name: string) {
          const collection = inner.collection<T>(name);
          return new Proxy(collection, {
            get(target, key, receiver) {
              const value = Reflect.get(target, key, receiver) as unknown;
              if (typeof value !== 'function') return value;
              return (...args: unknown[]) => {
                const op = `${name}.${String(key)}`;
                if (key !== 'createIndex') counts.set(op, (counts.get(op) ?? 0) + 1);
                const result = (value as (...a: unknown[]) => unknown).apply(target, args);
                if (latencyMs === 0) return result;
                return Promise.resolve(result).then(
                  (answer) => new Promise((resolve) => setTimeout(() => resolve(answer), latencyMs)),
                );
              };
            },
          });
        },
      };
      return { store: wrapped, counts };
    };

    it('writes many new streams with one counter advance, one insert and one mark; a taken stream is refused on its own', async () => {
      const { store: counted, counts } = counting(store);
      const many = createEventStore({
        store: counted,
        service: 'many',
        log: silentLog(),
        validate: () => {},
      });
      const projection = counterProjection(counted);
      many.register(projection);
      await many.append('send-3', 0, [{ type: 'Sent', data: 3 }]);
      counts.clear();

      const entries: AppendManyEntry[] = Array.from({ length: 50 }, (_, i) => ({
        stream: `send-${i}`,
        expectedVersion: 0,
        events: [{ type: 'Sent', data: i }],
      }));
      // The same new stream twice in one batch: the second is refused like a second append would be.
      entries.push({ stream: 'send-7', expectedVersion: 0, events: [{ type: 'Sent', data: 'again' }] });
      const results = await many.appendMany(entries, { actor: 'system' });

      expect(results).toHaveLength(51);
      const refused = results.flatMap((r, i) => (r.ok ? [] : [[i, r.error instanceof ConcurrencyError]]));
      expect(refused).toEqual([
        [3, true],
        [50, true],
      ]);
      const ok = results.flatMap((r) => (r.ok ? r.events : []));
      expect(ok).toHaveLength(49);
      expect(ok.every((e) => e.version === 1 && e.actor === 'system')).toBe(true);

      // One sequence range (from the block the first append reserved: no counter advance), one insert (at most once
      // more per clash: the taken stream send-3 and the batch's second send-7) with one insert of the pending rows
      // each, one projection pass and one mark (a deletion of the rows) for all of them; no commit is rewritten.
      expect(counts.get('events_meta.findOneAndUpdate') ?? 0).toBe(0);
      expect(counts.get('events.insertMany')).toBeLessThanOrEqual(3);
      expect(counts.get('events_pending.insertMany')).toBe(1);
      // The refused commits' rows (one deletion), then the mark.
      expect(counts.get('events_pending.deleteMany')).toBe(2);
      expect(counts.get('projection_checkpoints.updateOne')).toBe(1);
      expect(counts.get('events.insertOne') ?? 0).toBe(0);
      expect(counts.get('events.updateMany') ?? 0).toBe(0);
      expect(counts.get('events.updateOne') ?? 0).toBe(0);

      const commits = await store.collection<CommitDoc>(EVENTS).find({}, { sort: { seq: 1 } });
      expect(commits).toHaveLength(50);
      const pending = await pendingCommits(store);
      expect(pending.unprojected).toEqual([]);
      // The relay's rows: send-3's, then one for the commits of the batch that went in, in seq order, naming none of
      // the refused ones.
      expect(pending.unpublished).toEqual(commits.map((c) => c._id));
      expect(await store.collection(PENDING).countDocuments(pendingRange('pub'))).toBe(2);
      expect(new Set(commits.map((c) => c.seq)).size).toBe(50);
      // Projected exactly once each (the counter projection is not idempotent), the refused ones not at all.
      expect(projection.applied).toBe(50);
      const counters = await readCounters(store);
      expect(counters.find((c) => c._id === 'send-7')).toMatchObject({ count: 1 });
      expect(counters.find((c) => c._id === 'send-3')).toMatchObject({ count: 1 });
      expect((await many.readStream('send-7'))[0]?.data).toBe(7);
      many.close();
    });

    it('an appendMany of new streams is applied in one applyMany call; a failing one falls back to one by one', async () => {
      const { store: counted, counts } = counting(store);
      const many = createEventStore({
        store: counted,
        service: 'batch',
        log: silentLog(),
        validate: () => {},
      });
      const docs = counted.collection<{ _id: string; n: number }>('sent_docs');
      let failOnce = false;
      const calls: number[] = [];
      const projection: Projection = {
        name: 'sent',
        async apply(event) {
          await docs.replaceOne(
            { _id: event.stream },
            { _id: event.stream, n: event.data as number },
            { upsert: true },
          );
        },
        async applyMany(batch) {
          calls.push(batch.length);
          if (failOnce) {
            failOnce = false;
            await docs.insertOne({ _id: (batch[0] as EventEnvelope).stream, n: -1 });
            throw new Error('applyMany failed');
          }
          await docs.insertMany(batch.map((e) => ({ _id: e.stream, n: e.data as number })));
        },
        async reset() {
          await docs.drop();
        },
      };
      many.register(projection);
      const entries = (from: number) =>
        Array.from({ length: 20 }, (_, i) => ({
          stream: `b-${from + i}`,
          expectedVersion: 0,
          events: [{ type: 'Sent', data: from + i }],
        }));
      counts.clear();
      await many.appendMany(entries(0));
      expect(calls).toEqual([20]);
      // Applied with one insert, not one write per commit (each would be its own transaction in the group commit).
      expect(counts.get('sent_docs.insertMany')).toBe(1);
      expect(counts.get('sent_docs.replaceOne') ?? 0).toBe(0);

      // A failure part way: nothing is lost, each commit applied one by one by apply (idempotent).
      failOnce = true;
      await many.appendMany(entries(20));
      expect(calls).toEqual([20, 20]);
      expect(counts.get('sent_docs.replaceOne')).toBe(20);
      const stored = await docs.find({}, { sort: { n: 1 } });
      expect(stored.map((d) => d.n)).toEqual(Array.from({ length: 40 }, (_, i) => i));
      expect((await pendingCommits(store)).unprojected).toEqual([]);

      // A later commit of a stream already there is not a batch of new streams: apply, in the stream's order.
      await many.appendMany([
        { stream: 'b-1', expectedVersion: 1, events: [{ type: 'Sent', data: 100 }] },
        { stream: 'b-2', expectedVersion: 1, events: [{ type: 'Sent', data: 200 }] },
      ]);
      expect(calls).toEqual([20, 20]);
      expect((await docs.findOne({ _id: 'b-2' }))?.n).toBe(200);
      many.close();
    });

    it('invalid events in an appendMany throw before anything is written', async () => {
      const strict = createEventStore({
        store,
        service: 'strict',
        log: silentLog(),
        validate: (_type, data) => {
          if (data === 'bad') throw new Error('bad data');
        },
      });
      await expect(
        strict.appendMany([
          { stream: 'x-1', expectedVersion: 0, events: [{ type: 't', data: 'good' }] },
          { stream: 'x-2', expectedVersion: 0, events: [{ type: 't', data: 'bad' }] },
        ]),
      ).rejects.toThrow('bad data');
      expect(await store.collection(EVENTS).countDocuments({})).toBe(0);
      strict.close();
    });

    it('concurrent appends share counter advances and marks; each stream keeps its order', async () => {
      const { store: counted, counts } = counting(store, 2);
      const grouped = createEventStore({
        store: counted,
        service: 'grouped',
        log: silentLog(),
        validate: () => {},
      });
      // A per-stream projection (as engagement's): commits of different streams are applied at once, so their marks
      // are written together.
      const projection = Object.assign(counterProjection(counted), { concurrency: 'stream' as const });
      grouped.register(projection);
      await grouped.append('warm', 0, [{ type: 't', data: 0 }]);
      counts.clear();
      const streams = Array.from({ length: 20 }, (_, i) => `g-${i}`);
      await Promise.all(
        streams.map(async (stream) => {
          for (let v = 0; v < 3; v++) await grouped.append(stream, v, [{ type: 't', data: v }]);
        }),
      );
      expect(projection.applied).toBe(61);
      expect(counts.get('events.insertOne')).toBe(60);
      expect(counts.get('events_meta.findOneAndUpdate') ?? 0).toBeLessThanOrEqual(1);
      expect(counts.get('events_pending.insertMany')).toBe(60);
      expect(counts.get('events_pending.deleteMany')).toBeLessThan(60);
      expect(counts.get('events.updateMany') ?? 0).toBe(0);
      // Each stream's previous commit was marked by this process: no gap to look up.
      expect(counts.get('events_pending.find') ?? 0).toBe(0);
      const commits = await store.collection<CommitDoc>(EVENTS).find({}, { sort: { seq: 1 } });
      expect(new Set(commits.map((c) => c.seq)).size).toBe(61);
      expect((await pendingCommits(store)).unprojected).toEqual([]);
      for (const stream of streams) {
        const seqs = commits.filter((c) => c.stream === stream).map((c) => c.fromVersion);
        expect(seqs).toEqual([0, 1, 2]);
      }
      const counters = await readCounters(store);
      expect(counters.filter((c) => c._id.startsWith('g-')).every((c) => c.count === 3)).toBe(true);
      grouped.close();

      // A restarted process remembers no marks: it reads the previous commit's row (none: projected), no scan.
      const restarted = createEventStore({
        store: counted,
        service: 'grouped',
        log: silentLog(),
        validate: () => {},
      });
      const again = Object.assign(counterProjection(counted), { concurrency: 'stream' as const });
      restarted.register(again);
      await restarted.catchUp();
      counts.clear();
      await restarted.append('g-0', 3, [{ type: 't', data: 3 }]);
      expect(counts.get('events_pending.findOne')).toBe(1);
      expect(counts.get('events_pending.find') ?? 0).toBe(0);
      expect(counts.get('counters.updateOne')).toBe(1);
      restarted.close();
    });

    it('hands sequence numbers out of reserved blocks, and keeps a stream in order across two processes on one store', async () => {
      const { store: counted, counts } = counting(store);
      const one = createEventStore({ store: counted, service: 'one', log: silentLog(), validate: () => {} });
      const two = createEventStore({ store: counted, service: 'two', log: silentLog(), validate: () => {} });
      // One counter advance reserves a block: the first process's next appends write no counter.
      await one.append('a', 0, [{ type: 't', data: 1 }]);
      for (let v = 1; v < 10; v++) await one.append('a', v, [{ type: 't', data: v }]);
      expect(counts.get('events_meta.findOneAndUpdate')).toBe(1);
      // The second process (its own block, above the first's) writes the stream's next commit; the first process's
      // block is then below that commit, so its next append of the stream takes a fresh block above it.
      await two.append('a', 10, [{ type: 't', data: 10 }]);
      await one.append('a', 11, [{ type: 't', data: 11 }]);
      await one.append('b', 0, [{ type: 't', data: 0 }]);
      expect(counts.get('events_meta.findOneAndUpdate')).toBe(3);
      const commits = await store.collection<CommitDoc>(EVENTS).find({ stream: 'a' }, { sort: { seq: 1 } });
      expect(commits.map((c) => c.fromVersion)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
      const all = await store.collection<CommitDoc>(EVENTS).find({});
      expect(new Set(all.map((c) => c.seq)).size).toBe(all.length);
      // readAll (rebuilds) sees the stream in version order.
      const versions: number[] = [];
      for await (const event of one.readAll()) if (event.stream === 'a') versions.push(event.version);
      expect(versions).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
      one.close();
      two.close();
    });
  });
});

describe('event store: the contract schemas at append', () => {
  let store: DocumentStore;
  let events: ServiceEventStore;
  beforeEach(() => {
    store = createEmbeddedStore();
    events = createEventStore({ store, service: 'engagement', log: silentLog() });
  });
  afterEach(async () => {
    events.close();
    await store.close();
  });

  const like = { userId: 'u1', templateId: 't1', liked: true };

  it('appends an event whose data matches its contract', async () => {
    const [stored] = await events.append('like-u1-t1', 0, [
      { type: EngagementEvents.LikeSet.type, data: like },
    ]);
    expect(stored?.data).toEqual(like);
  });

  it('refuses an unknown event type, naming it, and writes nothing', async () => {
    await expect(events.append('x-1', 0, [{ type: 'engagement.Nope.v1', data: {} }])).rejects.toThrow(
      /engagement\.Nope\.v1: unknown event type/,
    );
    expect(await store.collection(EVENTS).countDocuments({})).toBe(0);
  });

  it('refuses invalid data naming the type and the field, and takes no sequence number', async () => {
    const err = await events
      .append('like-u1-t1', 0, [
        { type: EngagementEvents.LikeSet.type, data: like },
        { type: EngagementEvents.LikeSet.type, data: { ...like, liked: 'yes' } },
      ])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EventSchemaError);
    expect((err as EventSchemaError).message).toMatch(/^event engagement\.LikeSet\.v1: field liked: /);
    expect(await store.collection(EVENTS).countDocuments({})).toBe(0);
    const [stored] = await events.append('like-u1-t1', 0, [
      { type: EngagementEvents.LikeSet.type, data: like },
    ]);
    expect(await store.collection<CommitDoc>(EVENTS).findOne({ _id: 'like-u1-t1@0' })).toMatchObject({
      seq: 1,
    });
    expect(stored?.version).toBe(1);
  });

  it('refuses a missing nested field by its path', async () => {
    await expect(
      events.append('user-1', 0, [
        {
          type: AuthEvents.UserRegistered.type,
          data: {
            userId: 'u1',
            email: 'a@b.c',
            source: 'self',
            role: 'user',
            type: 0,
            notiinfo: { time: '08:00' },
            topics: [],
            timeZone: 'UTC',
          },
        },
      ]),
    ).rejects.toThrow(/event auth\.UserRegistered\.v1: field notiinfo\.active: /);
  });
});
