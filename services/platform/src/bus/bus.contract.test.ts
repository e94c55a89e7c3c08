import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { silentLog, waitFor } from '../events/testing';
import type { BusMessage, EventBus, Subscription } from '../events/types';
import { createEmbeddedStore } from '../store/embedded';
import type { DocumentStore } from '../store/types';
import { engine } from '../testing/engines';
import { deadLetterTopic, PoisonMessageError } from './dead-letter';
import { createInProcessBus, DEFAULT_LANES } from './in-process';
import { createKafkaBus } from './kafka';

interface BusUnderTest {
  bus: EventBus;
  cleanup(): Promise<void>;
}

let uniq = 0;
const fresh = (what: string) => `contract.${what}.${process.pid}.${Date.now().toString(36)}.${++uniq}`;

const msg = (topic: string, key: string, n: number, headers: Record<string, string> = {}): BusMessage => ({
  topic,
  key,
  value: JSON.stringify({ key, n }),
  headers: { 'event-id': `${key}-${n}`, ...headers },
});

const parsed = (m: BusMessage) => JSON.parse(m.value) as { key: string; n: number };

/** The attempts every bus under test makes before dead-lettering. */
const MAX_ATTEMPTS = 3;

/** Polls fn until it returns a value, for at most ms. */
const waitForValue = <T>(fn: () => Promise<T | undefined>, ms: number, what: string): Promise<T> =>
  vi.waitFor(
    async () => {
      const value = await fn();
      if (value === undefined) throw new Error(`timed out waiting for ${what}`);
      return value;
    },
    { timeout: ms, interval: 50 },
  );

/**
 * The event bus port's contract, run against every adapter that is reachable.
 * waitMs bounds every "eventually" (Kafka consumer groups need seconds to join).
 */
export function describeBusContract(name: string, makeBus: () => Promise<BusUnderTest>, waitMs = 5_000) {
  const timeout = waitMs * 2 + 10_000;
  describe(`event bus contract: ${name}`, () => {
    const open: BusUnderTest[] = [];
    const subscriptions: Subscription[] = [];
    const make = async () => {
      const made = await makeBus();
      open.push(made);
      return made.bus;
    };

    afterAll(async () => {
      for (const s of subscriptions) await s.close().catch(() => undefined);
      for (const b of open) await b.cleanup();
    }, timeout);

    it(
      'ping resolves',
      async () => {
        const bus = await make();
        await expect(bus.ping()).resolves.toBeUndefined();
      },
      timeout,
    );

    it(
      'keeps per-key order and delivers every message',
      async () => {
        const bus = await make();
        const topic = fresh('order');
        const keys = ['k-a', 'k-b', 'k-c', 'k-d'];
        for (let batch = 0; batch < 5; batch++) {
          await bus.publish(keys.flatMap((key) => [0, 1, 2, 3].map((i) => msg(topic, key, batch * 4 + i))));
        }
        const seen = new Map<string, number[]>();
        subscriptions.push(
          await bus.subscribe(fresh('group'), [topic], async (m) => {
            const { key, n } = parsed(m);
            expect(m.key).toBe(key);
            seen.set(key, [...(seen.get(key) ?? []), n]);
          }),
        );
        await waitFor(
          () => [...seen.values()].reduce((s, l) => s + l.length, 0) >= 80,
          waitMs,
          '80 messages',
        );
        const expected = Array.from({ length: 20 }, (_, i) => i);
        for (const key of keys) expect(seen.get(key)).toEqual(expected);
      },
      timeout,
    );

    it(
      'a new group reads from the beginning; two groups each get everything',
      async () => {
        const bus = await make();
        const topic = fresh('groups');
        await bus.publish([msg(topic, 'x', 1), msg(topic, 'y', 2), msg(topic, 'x', 3)]);
        const got1: number[] = [];
        const got2: number[] = [];
        subscriptions.push(
          await bus.subscribe(fresh('g1'), [topic], async (m) => void got1.push(parsed(m).n)),
        );
        subscriptions.push(
          await bus.subscribe(fresh('g2'), [topic], async (m) => void got2.push(parsed(m).n)),
        );
        await waitFor(() => got1.length >= 3 && got2.length >= 3, waitMs, 'both groups');
        await bus.publish([msg(topic, 'y', 4)]);
        await waitFor(() => got1.length >= 4 && got2.length >= 4, waitMs, 'the later message in both groups');
        expect([...got1].sort()).toEqual([1, 2, 3, 4]);
        expect([...got2].sort()).toEqual([1, 2, 3, 4]);
      },
      timeout,
    );

    it(
      'two members of one group share the messages, every message reaching one of them',
      async () => {
        const bus = await make();
        const topic = fresh('members');
        const group = fresh('shared');
        const a: number[] = [];
        const b: number[] = [];
        subscriptions.push(await bus.subscribe(group, [topic], async (m) => void a.push(parsed(m).n)));
        subscriptions.push(await bus.subscribe(group, [topic], async (m) => void b.push(parsed(m).n)));
        await bus.publish(Array.from({ length: 30 }, (_, i) => msg(topic, `key-${i % 10}`, i)));
        await waitFor(() => new Set([...a, ...b]).size >= 30, waitMs, 'all 30 across the members');
        expect(new Set([...a, ...b])).toEqual(new Set(Array.from({ length: 30 }, (_, i) => i)));
      },
      timeout,
    );

    it(
      'redelivers a message whose handler threw, before the later messages of its key',
      async () => {
        const bus = await make();
        const topic = fresh('retry');
        await bus.publish([msg(topic, 'r', 1), msg(topic, 'r', 2), msg(topic, 'r', 3)]);
        const attempts: number[] = [];
        const done: number[] = [];
        let failuresLeft = 2;
        subscriptions.push(
          await bus.subscribe(fresh('g'), [topic], async (m) => {
            const { n } = parsed(m);
            attempts.push(n);
            if (n === 2 && failuresLeft > 0) {
              failuresLeft -= 1;
              throw new Error('handler failure (expected by the test)');
            }
            done.push(n);
          }),
        );
        await waitFor(() => done.length >= 3, waitMs * 2, 'all three handled');
        expect(done).toEqual([1, 2, 3]);
        expect(attempts.filter((n) => n === 2)).toHaveLength(3);
        expect(attempts.indexOf(3)).toBeGreaterThan(attempts.lastIndexOf(2));
      },
      timeout,
    );

    it(
      'dead-letters a message that fails every attempt, with its error; the group moves on, a restart does not bring it back, a replay after the fix delivers it once to its group only',
      async () => {
        const bus = await make();
        const topic = fresh('poison');
        const group = fresh('g');
        const other = fresh('other');
        await bus.publish([msg(topic, 'p', 1), msg(topic, 'p', 2, { 'x-trace': 't-2' }), msg(topic, 'p', 3)]);
        await bus.publish([msg(topic, 'q', 4)]);
        let fixed = false;
        const attempts: number[] = [];
        const done: number[] = [];
        const handler = async (m: BusMessage) => {
          const { n } = parsed(m);
          attempts.push(n);
          if (n === 2 && !fixed) throw new Error('poison 2 (expected by the test)');
          done.push(n);
        };
        const first = await bus.subscribe(group, [topic], handler);
        subscriptions.push(first);
        const otherDone: number[] = [];
        subscriptions.push(
          await bus.subscribe(other, [topic], async (m) => void otherDone.push(parsed(m).n)),
        );

        await waitFor(() => done.length >= 3, waitMs * 2, 'the messages after the poison one');
        const deadLetters = await waitForValue(
          async () => {
            const letters = await bus.deadLetters(group);
            return letters.length > 0 ? letters : undefined;
          },
          waitMs,
          'the dead letter',
        );
        // later messages of the poison one's key still flow (the rule in docs/decisions/0006)
        expect(done.filter((n) => n !== 4)).toEqual([1, 3]);
        expect(done).toContain(4);
        expect(attempts.filter((n) => n === 2)).toHaveLength(MAX_ATTEMPTS);
        expect(deadLetters).toHaveLength(1);
        const [letter] = deadLetters;
        expect(letter).toMatchObject({
          groupId: group,
          message: msg(topic, 'p', 2, { 'x-trace': 't-2' }),
          attempts: MAX_ATTEMPTS,
        });
        expect(letter?.error).toContain('poison 2 (expected by the test)');
        expect(Date.parse(letter?.firstFailedAt ?? '')).not.toBeNaN();
        expect(await bus.deadLetters(other)).toEqual([]);
        expect((await bus.deadLetters()).map((l) => l.groupId)).toContain(group);

        // a restarted consumer does not get the dead letter again
        await first.close();
        const afterRestart: number[] = [];
        subscriptions.push(
          await bus.subscribe(group, [topic], async (m) => {
            afterRestart.push(parsed(m).n);
            await handler(m);
          }),
        );
        await bus.publish([msg(topic, 'p', 5)]);
        await waitFor(() => afterRestart.includes(5), waitMs * 2, 'the restarted consumer');
        expect(afterRestart).toEqual([5]);

        // the replay after the fix: delivered once, to this group only, and no longer a dead letter
        fixed = true;
        expect(await bus.replayDeadLetters(group)).toBe(1);
        await bus.publish([msg(topic, 'p', 6)]); // same key: after the replay on both buses
        await waitFor(() => afterRestart.includes(6) && otherDone.includes(6), waitMs * 2, 'the replay');
        expect(afterRestart).toEqual([5, 2, 6]);
        expect(done.filter((n) => n === 2)).toHaveLength(1);
        expect(otherDone.filter((n) => n === 2)).toHaveLength(1);
        expect(await bus.deadLetters(group)).toEqual([]);
      },
      timeout,
    );

    it(
      'a message no retry can help (PoisonMessageError) is dead-lettered at its first attempt; the messages behind it flow at once',
      async () => {
        const bus = await make();
        const topic = fresh('poison-at-once');
        const group = fresh('g');
        await bus.publish([msg(topic, 'p', 1), msg(topic, 'p', 2), msg(topic, 'p', 3)]);
        const attempts: number[] = [];
        const done: number[] = [];
        subscriptions.push(
          await bus.subscribe(group, [topic], async (m) => {
            const { n } = parsed(m);
            attempts.push(n);
            if (n === 2)
              throw new PoisonMessageError('text that is not valid Unicode (expected by the test)');
            done.push(n);
          }),
        );
        await waitFor(() => done.length >= 2, waitMs * 2, 'the message after the poison one');
        const letters = await waitForValue(
          async () => {
            const found = await bus.deadLetters(group);
            return found.length > 0 ? found : undefined;
          },
          waitMs,
          'the dead letter',
        );
        expect(done).toEqual([1, 3]);
        expect(attempts.filter((n) => n === 2)).toHaveLength(1);
        expect(letters).toHaveLength(1);
        expect(letters[0]).toMatchObject({ groupId: group, attempts: 1, message: msg(topic, 'p', 2) });
        expect(letters[0]?.error).toContain('PoisonMessageError: text that is not valid Unicode');
      },
      timeout,
    );

    it(
      'batch subscription: a batch that fails every attempt is split; only the message failing alone is dead-lettered',
      async () => {
        const bus = await make();
        const topic = fresh('batch-poison');
        const group = fresh('g');
        await bus.publish([1, 2, 3, 4, 5, 6].map((n) => msg(topic, 'b', n)));
        let fixed = false;
        const handled: number[] = [];
        subscriptions.push(
          await bus.subscribeBatch(
            group,
            [topic],
            async (batch) => {
              if (!fixed && batch.some((m) => parsed(m).n === 4))
                throw new Error('poison 4 in the batch (expected by the test)');
              for (const m of batch) handled.push(parsed(m).n);
            },
            { maxMessages: 100, maxWaitMs: 50 },
          ),
        );
        const deadLetters = await waitForValue(
          async () => {
            const letters = await bus.deadLetters(group);
            return letters.length > 0 && handled.length >= 5 ? letters : undefined;
          },
          waitMs * 2,
          'the dead letter and the rest handled',
        );
        expect(handled).toEqual([1, 2, 3, 5, 6]);
        expect(deadLetters.map((l) => parsed(l.message).n)).toEqual([4]);
        expect(deadLetters[0]?.error).toContain('poison 4 in the batch');

        fixed = true;
        expect(await bus.replayDeadLetters(group)).toBe(1);
        await waitFor(() => handled.includes(4), waitMs * 2, 'the replayed message');
        expect(handled).toEqual([1, 2, 3, 5, 6, 4]);
        expect(await bus.deadLetters(group)).toEqual([]);
      },
      timeout,
    );

    it(
      'round-trips keys, values and headers as strings',
      async () => {
        const bus = await make();
        const topic = fresh('headers');
        const value = JSON.stringify({
          text: 'héllo ✓ "quoted"\nnew line',
          nested: { 'a.b': 1, $c: [1, 2] },
        });
        const headers = {
          'event-id': 'e-1',
          'event-type': 'test.Thing.v1',
          'request-id': 'r-ü',
          'x.dotted': '',
        };
        await bus.publish([{ topic, key: 'stream-ü', value, headers }]);
        let received: BusMessage | undefined;
        subscriptions.push(
          await bus.subscribe(fresh('g'), [topic], async (m) => {
            received = m;
          }),
        );
        await waitFor(() => received !== undefined, waitMs, 'the message');
        expect(received).toEqual({ topic, key: 'stream-ü', value, headers });
      },
      timeout,
    );

    it(
      'batch subscription: delivers every message in per-key order, in batches no larger than maxMessages',
      async () => {
        const bus = await make();
        const topic = fresh('batch');
        const keys = ['b-a', 'b-b', 'b-c'];
        await bus.publish(keys.flatMap((key) => Array.from({ length: 20 }, (_, i) => msg(topic, key, i))));
        const seen = new Map<string, number[]>();
        const sizes: number[] = [];
        subscriptions.push(
          await bus.subscribeBatch(
            fresh('g'),
            [topic],
            async (batch) => {
              sizes.push(batch.length);
              for (const m of batch) {
                const { key, n } = parsed(m);
                seen.set(key, [...(seen.get(key) ?? []), n]);
              }
            },
            { maxMessages: 25, maxWaitMs: 50 },
          ),
        );
        await waitFor(
          () => [...seen.values()].reduce((s, l) => s + l.length, 0) >= 60,
          waitMs,
          '60 messages',
        );
        for (const key of keys) expect(seen.get(key)).toEqual(Array.from({ length: 20 }, (_, i) => i));
        expect(Math.max(...sizes)).toBeLessThanOrEqual(25);
      },
      timeout,
    );

    it(
      'batch subscription: a batch whose handler threw comes again, and nothing after it is committed first',
      async () => {
        const bus = await make();
        const topic = fresh('batch-retry');
        await bus.publish([1, 2, 3, 4].map((n) => msg(topic, 'r', n)));
        const handled: number[] = [];
        let failuresLeft = 1;
        subscriptions.push(
          await bus.subscribeBatch(
            fresh('g'),
            [topic],
            async (batch) => {
              if (failuresLeft > 0) {
                failuresLeft -= 1;
                throw new Error('batch failure (expected by the test)');
              }
              for (const m of batch) handled.push(parsed(m).n);
            },
            { maxMessages: 100, maxWaitMs: 50 },
          ),
        );
        await waitFor(() => handled.length >= 4, waitMs * 2, 'all four handled');
        expect(handled).toEqual([1, 2, 3, 4]);
      },
      timeout,
    );

    it(
      'lag: a group behind on a topic is counted, and falls to zero once it has handled everything',
      async () => {
        const bus = await make();
        if (!bus.lag) throw new Error(`${name}: the bus does not measure consumer lag`);
        const topic = fresh('lag');
        const group = fresh('lagging');
        await bus.publish([msg(topic, 'k', 1), msg(topic, 'k', 2), msg(topic, 'k', 3)]);
        let release: () => void = () => undefined;
        const gate = new Promise<void>((resolve) => {
          release = resolve;
        });
        const handled: number[] = [];
        subscriptions.push(
          await bus.subscribe(group, [topic], async (m) => {
            await gate;
            handled.push(parsed(m).n);
          }),
        );
        const lagOf = async () =>
          (await bus.lag?.())?.find((l) => l.groupId === group && l.topic === topic)?.lag;
        // Held at the first message: nothing is committed, all three are ahead of the group.
        await waitForValue(async () => ((await lagOf()) === 3 ? 3 : undefined), waitMs, 'lag 3');
        release();
        await waitFor(() => handled.length >= 3, waitMs, 'the three handled');
        await waitForValue(async () => ((await lagOf()) === 0 ? 0 : undefined), waitMs, 'lag 0');
      },
      timeout,
    );

    it(
      'refuses messages Kafka would not carry the same way',
      async () => {
        const bus = await make();
        const topic = fresh('reject');
        const bad = [
          { topic, key: 'k', value: { not: 'a string' }, headers: {} },
          { topic, key: 'k', value: 'v', headers: { n: 1 } },
          { topic, key: 'k', value: 'v', headers: { b: Buffer.from('x') } },
          { topic, key: 7, value: 'v', headers: {} },
        ] as unknown as BusMessage[];
        for (const message of bad) await expect(bus.publish([message])).rejects.toThrow(TypeError);
      },
      timeout,
    );
  });
}

// ---- in-process bus: always ------------------------------------------------------------------------------

describeBusContract('in-process (memory store)', async () => {
  const store = createEmbeddedStore();
  const bus = createInProcessBus({ store, retryBaseMs: 10, maxAttempts: MAX_ATTEMPTS, log: silentLog() });
  return {
    bus,
    async cleanup() {
      await bus.close();
      await store.close();
    },
  };
});

const tempDirs: string[] = [];
afterAll(async () => {
  for (const dir of tempDirs) await rm(dir, { recursive: true, force: true });
});
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'nudge-bus-'));
  tempDirs.push(dir);
  return dir;
};

describeBusContract('in-process (embedded store on disk)', async () => {
  const store = createEmbeddedStore({ dir: await tempDir() });
  const bus = createInProcessBus({ store, retryBaseMs: 10, maxAttempts: MAX_ATTEMPTS, log: silentLog() });
  return {
    bus,
    async cleanup() {
      await bus.close();
      await store.close();
    },
  };
});

describe('in-process bus: durability on the embedded store', () => {
  it('a group resumes from its committed offset after the bus and store are reopened', async () => {
    const dir = await tempDir();
    const topic = 'nudge.durable.events';
    let store: DocumentStore = createEmbeddedStore({ dir });
    let bus = createInProcessBus({ store, retryBaseMs: 10, log: silentLog() });
    await bus.publish([1, 2, 3, 4, 5].map((n) => msg(topic, `k${n % 2}`, n)));

    // Consume two, then fail on the third until the "crash" (nothing after 2 is committed).
    const first: number[] = [];
    let refused = 0;
    await bus.subscribe('g', [topic], async (m) => {
      const { n } = parsed(m);
      if (first.length >= 2) {
        refused += 1;
        throw new Error('stop here (expected by the test)');
      }
      first.push(n);
    });
    await waitFor(() => first.length === 2 && refused > 0, 5_000, 'two consumed');
    await bus.close();
    await store.close();

    store = createEmbeddedStore({ dir });
    bus = createInProcessBus({ store, retryBaseMs: 10, log: silentLog() });
    const resumed: number[] = [];
    const fromStart: number[] = [];
    await bus.subscribe('g', [topic], async (m) => void resumed.push(parsed(m).n));
    await bus.subscribe('new-group', [topic], async (m) => void fromStart.push(parsed(m).n));
    await bus.publish([msg(topic, 'k0', 6)]);
    await waitFor(() => resumed.length >= 4 && fromStart.length >= 6, 5_000, 'resumed delivery');
    expect(first).toEqual([1, 2]);
    expect(resumed).toEqual([3, 4, 5, 6]);
    expect(fromStart).toEqual([1, 2, 3, 4, 5, 6]);
    await bus.close();
    await store.close();
  });

  it('delivers promptly after publish, without waiting for the poll interval', async () => {
    const store = createEmbeddedStore();
    const bus = createInProcessBus({ store, pollMs: 600_000, log: silentLog() });
    const got: number[] = [];
    await bus.subscribe('g', ['t'], async (m) => void got.push(parsed(m).n));
    await bus.publish([msg('t', 'k', 1)]);
    await waitFor(() => got.length === 1, 5_000, 'delivery woken by publish');
    await bus.publish([msg('t', 'k', 2)]);
    await waitFor(() => got.length === 2, 5_000, 'second delivery woken by publish');
    // another bus instance on the same store (one per service in the standalone process) wakes it too
    const other = createInProcessBus({ store, pollMs: 600_000, log: silentLog() });
    await other.publish([msg('t', 'k', 3)]);
    await waitFor(() => got.length === 3, 5_000, 'delivery woken by a publish on another instance');
    expect(got).toEqual([1, 2, 3]);
    await other.close();
    await bus.close();
    await store.close();
  });
});

// ---- Kafka: the run's broker (scripts/engines), or KAFKA_BROKERS ------------------------------------------------

const kafka = await engine('kafka');
if (!kafka.available) console.log(`[contract] event bus / kafka: skipped: ${kafka.reason}`);

describe.runIf(kafka.available)('kafka', () => {
  const brokers = (kafka.env?.KAFKA_BROKERS ?? '').split(',').filter(Boolean);
  const kafkaBus = () =>
    createKafkaBus({
      brokers,
      clientId: 'nudge-contract',
      log: silentLog(),
      retryBaseMs: 50,
      maxAttempts: MAX_ATTEMPTS,
      // As the services run it (BUS_LANES): every partition of a consumer handled at once.
      lanes: DEFAULT_LANES,
    });

  describeBusContract(
    'kafka',
    async () => {
      const bus = kafkaBus();
      return { bus, cleanup: () => bus.close() };
    },
    45_000,
  );

  it('lists the dead letters of a group whose dead-letter topic is brand new (its partitions still without a leader)', async () => {
    const bus = kafkaBus();
    const admin = new Kafka({
      brokers,
      clientId: 'nudge-contract-admin',
      logLevel: logLevel.NOTHING,
    }).admin();
    await admin.connect();
    try {
      // A partition answers "not the leader" for a moment after its topic is created: one try in several hit it.
      for (let i = 0; i < 20; i++) {
        const group = fresh('new-dlq');
        await admin.createTopics({
          topics: [{ topic: deadLetterTopic(group), numPartitions: 3 }],
          waitForLeaders: false,
        });
        await expect(bus.deadLetters(group)).resolves.toEqual([]);
      }
    } finally {
      await admin.disconnect();
      await bus.close();
    }
  }, 120_000);
});
