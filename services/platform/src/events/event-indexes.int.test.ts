/**
 * The event store's queries stay on their indexes in the embedded store (EXPLAIN QUERY PLAN), and a relay pass that
 * finds nothing to publish costs one store query.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedStore } from '../store/embedded';
import type { Collection, DocumentStore, Filter, FindOptions } from '../store/types';
import { type CommitDoc, EVENTS, PENDING, type PendingDoc, pendingRange } from './commits';
import { createEventStore } from './event-store';
import { createRelay } from './relay';
import { counterProjection, silentLog } from './testing';
import type { BusMessage, EventBus } from './types';

const log = silentLog();

type Explain = (filter: Filter, options?: FindOptions) => string[];
const explainOf = <T extends CommitDoc | PendingDoc>(c: Collection<T>): Explain =>
  (c as unknown as { explain: Explain }).explain.bind(c);

/** The store, counting every collection call by `collection.method` while `counting` is on. */
function countingStore(store: DocumentStore) {
  const calls: string[] = [];
  let counting = false;
  const counted: DocumentStore = {
    kind: store.kind,
    collection: (name) =>
      new Proxy(store.collection(name), {
        get(target, key, receiver) {
          const value = Reflect.get(target, key, receiver);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            if (counting) calls.push(`${name}.${String(key)}`);
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      }),
    ping: () => store.ping(),
    close: () => store.close(),
  } as DocumentStore;
  return {
    store: counted,
    calls,
    count(on: boolean) {
      counting = on;
    },
  };
}

/** A bus that records what is published. */
const recordingBus = (published: BusMessage[]): EventBus =>
  ({
    kind: 'recording',
    async publish(messages: BusMessage[]) {
      published.push(...messages);
    },
  }) as unknown as EventBus;

let store: DocumentStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

async function appended() {
  store = createEmbeddedStore();
  const counted = countingStore(store);
  const events = createEventStore({ store: counted.store, service: 'orders', log, validate: () => {} });
  events.register(counterProjection(counted.store));
  await events.catchUp();
  for (let i = 0; i < 30; i++) {
    await events.append(`order-${i % 3}`, Math.floor(i / 3), [{ type: 'orders.Placed', data: { n: i } }]);
  }
  return {
    ...counted,
    events,
    commits: store.collection<CommitDoc>(EVENTS),
    pending: store.collection<PendingDoc>(PENDING),
  };
}

describe('event store queries on the embedded store', () => {
  it("stay on the events collection's indexes", async () => {
    const { commits, pending } = await appended();
    const explain = explainOf(commits);
    // The append's head check: the commit before it by _id; a stream's commits (readStream, the head check after a
    // commit of several events) are a range of the primary key. No index on {stream, toVersion} is kept.
    expect(explain({ _id: 'order-1@2' })).toEqual([
      expect.stringMatching(/^SEARCH doc:events USING INDEX sqlite_autoindex_doc:events_1 \(_id=\?\)/),
    ]);
    expect(explain({ _id: { $gte: 'order-1@', $lt: 'order-1A' }, stream: 'order-1' })).toEqual([
      expect.stringMatching(
        /^SEARCH doc:events USING INDEX sqlite_autoindex_doc:events_1 \(_id>\? AND _id<\?\)/,
      ),
    ]);
    expect(
      (await commits.find({ _id: { $gte: 'order-1@', $lt: 'order-1A' }, stream: 'order-1' })).length,
    ).toBe(10);
    expect(explain({ stream: 'order-1', toVersion: 3 })).toEqual([expect.stringMatching(/^SCAN doc:events/)]);
    // The relay's pages of pending rows, in seq order (their primary key): read in key order, no sort step; the same
    // for catch-up's pages of unprojected rows.
    for (const kind of ['pub', 'proj'] as const) {
      for (const filter of [pendingRange(kind), pendingRange(kind, `${kind}:0000000000000010`)]) {
        expect(explainOf(pending)(filter, { sort: { _id: 1 }, limit: 100 })).toEqual([
          expect.stringMatching(
            /^SEARCH doc:events_pending USING INDEX sqlite_autoindex_doc:events_pending_1 \(_id>\? AND _id<\?\)$/,
          ),
        ]);
      }
    }
    // Their commits, by _id.
    expect(explain({ _id: { $in: Array.from({ length: 100 }, (_, i) => `order-1@${i}`) } })).toEqual([
      expect.stringMatching(/^SEARCH doc:events USING INDEX sqlite_autoindex_doc:events_1 \(_id=\?\)/),
    ]);
    // readAll's pages.
    expect(explain({ seq: { $gt: 10 } }, { sort: { seq: 1 }, limit: 200 })).toEqual([
      expect.stringMatching(/^SEARCH doc:events USING INDEX ix:events:seq \(<expr>>\? AND <expr><\?\)$/),
    ]);
    // A stream's earlier unprojected commits (the gap before a commit, when its previous commit has a row): the `proj`
    // rows only.
    expect(
      explainOf(pending)({ stream: 'order-1', toVersion: { $lte: 5 }, ...pendingRange('proj') }),
    ).toEqual([
      expect.stringMatching(
        /^SEARCH doc:events_pending USING INDEX sqlite_autoindex_doc:events_pending_1 \(_id>\? AND _id<\?\)/,
      ),
    ]);
  });

  it('a relay pass that finds nothing to publish is one query', async () => {
    const { store: counted, calls, count, events } = await appended();
    const published: BusMessage[] = [];
    const bus = recordingBus(published);
    const relay = createRelay({ store: counted, bus, service: 'orders', log, pollMs: 60_000 });
    expect(await relay.flush()).toBe(30);
    expect(published).toHaveLength(30);
    count(true);
    expect(await relay.flush()).toBe(0);
    expect(await relay.flush()).toBe(0);
    count(false);
    expect(calls).toEqual(['events_pending.find', 'events_pending.find']);
    // Something appended is found by the next pass.
    await events.append('order-0', 10, [{ type: 'orders.Placed', data: { n: 30 } }]);
    expect(await relay.flush()).toBe(1);
    await relay.stop();
  });

  it('a relay on the event store publishes the commits appended in this process without reading them back', async () => {
    const { store: counted, calls, count, events } = await appended();
    const published: BusMessage[] = [];
    const bus = recordingBus(published);
    const relay = createRelay({
      store: counted,
      eventStore: events,
      bus,
      service: 'orders',
      log,
      pollMs: 60_000,
    });
    // The 30 commits appended before the relay started are read from the store.
    expect(await relay.flush()).toBe(30);
    relay.start();
    count(true);
    await events.append('order-0', 10, [{ type: 'orders.Placed', data: { n: 30 } }]);
    await events.appendMany([
      { stream: 'order-1', expectedVersion: 10, events: [{ type: 'orders.Placed', data: { n: 31 } }] },
      { stream: 'order-9', expectedVersion: 0, events: [{ type: 'orders.Placed', data: { n: 32 } }] },
    ]);
    await relay.flush();
    count(false);
    expect(published.slice(30).map((m) => (JSON.parse(m.value) as { data: { n: number } }).data.n)).toEqual([
      30, 31, 32,
    ]);
    expect(calls.filter((call) => call.startsWith('events.'))).toEqual([
      'events.findOne',
      'events.insertOne',
      'events.findOne',
      'events.insertMany',
    ]);
    await relay.stop();
  });

  it("keeps seq's index plain (seqs are unique by construction)", async () => {
    store = createEmbeddedStore();
    const commits = store.collection<CommitDoc>(EVENTS);
    const events = createEventStore({ store, service: 'orders', log, validate: () => {} });
    await events.catchUp();
    await commits.insertOne({ _id: 'old@0', seq: 1 } as CommitDoc);
    // A second document with seq 1 is accepted: the index is plain, so no unique check runs on an append.
    await commits.insertOne({ _id: 'other@0', seq: 1 } as CommitDoc);
    expect(await commits.countDocuments({ seq: 1 })).toBe(2);
    // readAll's pages still use it.
    expect(explainOf(commits)({ seq: { $gt: 0 } }, { sort: { seq: 1 }, limit: 200 })).toEqual([
      expect.stringMatching(/^SEARCH doc:events USING INDEX ix:events:seq /),
    ]);
  });
});
