import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROCESSED_EVENTS } from '../events/commits';
import { createConsumer } from '../events/consumer';
import { silentLog, waitFor } from '../events/testing';
import type { BusMessage } from '../events/types';
import { createEmbeddedStore } from '../store/embedded';
import { BUS_LOG, createInProcessBus, trimBusLog } from './in-process';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const topic = 'nudge.orders.events';
const envelope = (n: number): BusMessage => {
  const id = `event-${n}`;
  return {
    topic,
    key: `order-${n % 3}`,
    value: JSON.stringify({
      id,
      type: 'orders.Placed.v1',
      stream: `order-${n % 3}`,
      version: n,
      occurredAt: new Date().toISOString(),
      actor: null,
      data: { n },
      meta: {},
    }),
    headers: { 'event-id': id, 'event-type': 'orders.Placed.v1' },
  };
};
const numberOf = (m: BusMessage) => (JSON.parse(m.value) as { data: { n: number } }).data.n;

describe('in-process bus: bounded storage', () => {
  it('trims what every group consumed and expires processed ids; a group restarted after the trim still gets every message it had not consumed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nudge-trim-'));
    dirs.push(dir);
    let now = new Date();
    const clock = () => now;
    const options = {
      retryBaseMs: 5,
      retryMaxMs: 20,
      maxAttempts: 10_000,
      logRetentionMs: 60_000,
      trimEveryMs: 0,
      clock,
      log: silentLog(),
    };
    let store = createEmbeddedStore({ dir });
    let bus = createInProcessBus({ ...options, store });
    const log = () => store.collection<{ _id: string; offset: number; first: number }>(BUS_LOG);
    /** The offsets of the messages in the log: a row holds one publish's, `first`..`offset` (or `offset` alone). */
    const logged = async () =>
      (await log().find({}, { sort: { offset: 1 } })).flatMap((row) =>
        Array.from({ length: row.offset - row.first + 1 }, (_, i) => row.first + i),
      );

    // "fast" consumes everything through an idempotent consumer (processed ids in the same store here).
    const fastSeen: number[] = [];
    const fast = createConsumer({
      store,
      bus,
      groupId: 'fast',
      topics: [topic],
      log: silentLog(),
      processedRetentionMs: 60_000,
      clock,
      // orders.Placed.v1 is a made-up type, not in the contracts: the consumer's schema check is off here.
      check: (type, data) => ({ type, data }),
      handlers: { 'orders.Placed.v1': async (event) => void fastSeen.push((event.data as { n: number }).n) },
    });
    await fast.start();
    // "slow" takes three, then fails on the fourth until its process goes away.
    const slowFirst: number[] = [];
    await bus.subscribe('slow', [topic], async (m) => {
      if (slowFirst.length >= 3) throw new Error('slow stops here (expected by the test)');
      slowFirst.push(numberOf(m));
    });
    // Two publishes: one row of messages 1-2, one of 3-10.
    await bus.publish([envelope(1), envelope(2)]);
    await bus.publish(Array.from({ length: 8 }, (_, i) => envelope(i + 3)));
    await waitFor(() => fastSeen.length === 10 && slowFirst.length === 3, 5_000, 'fast all, slow three');
    const processed = store.collection(PROCESSED_EVENTS);
    expect(await processed.countDocuments({})).toBe(10);
    expect(await log().countDocuments({})).toBe(2);
    expect(await logged()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);

    // Within the retention nothing goes, even what both groups consumed.
    expect(await trimBusLog(store, { retentionMs: 60_000, now })).toBe(0);

    // Past the retention: the next message's traffic trims what both consumed (1..3): the row of 1-2 goes, the row
    // of 3-10 stays whole (slow has not consumed 4..10); fast's old ids expire.
    now = new Date(now.getTime() + 2 * 60_000);
    await bus.publish([envelope(11)]);
    await waitFor(() => fastSeen.length === 11, 5_000, 'fast gets 11');
    await waitFor(async () => (await log().countDocuments({})) === 2, 5_000, 'the log trimmed to 3..11');
    await waitFor(async () => (await processed.countDocuments({})) === 1, 5_000, 'old processed ids expired');
    expect(await logged()).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11]);

    // "slow" restarts (a new process on the same data directory) and gets exactly what it had not consumed.
    await fast.stop();
    await bus.close();
    await store.close();
    store = createEmbeddedStore({ dir });
    bus = createInProcessBus({ ...options, store });
    const slowAfter: number[] = [];
    await bus.subscribe('slow', [topic], async (m) => void slowAfter.push(numberOf(m)));
    await waitFor(() => slowAfter.length === 8, 5_000, 'slow resumes');
    expect(slowFirst).toEqual([1, 2, 3]);
    expect(slowAfter).toEqual([4, 5, 6, 7, 8, 9, 10, 11]);
    // Every group is now past everything: the log empties.
    await waitFor(async () => (await log().countDocuments({})) === 0, 5_000, 'the log trimmed to nothing');

    // A group that subscribed but has consumed nothing keeps the log: its position (0) holds the trim back.
    await bus.subscribe('idle', ['nudge.other.events'], async () => {
      throw new Error('idle never succeeds (expected by the test)');
    });
    await bus.publish([{ ...envelope(12), topic: 'nudge.other.events' }]);
    now = new Date(now.getTime() + 10 * 60_000);
    expect(await trimBusLog(store, { retentionMs: 60_000, now })).toBe(0);
    expect(await log().countDocuments({ topic: 'nudge.other.events' })).toBe(1);
    await bus.close();
    await store.close();
  });
});
