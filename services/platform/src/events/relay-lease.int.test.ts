/**
 * Two replicas of one service on one store: each "pod" has its own event store and relay; the relay lease
 * admits one publisher. Runs on the embedded store (one process, the same store object) and on MongoDB when
 * MONGODB_URL is set (two clients on one database, as two pods would have).
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createLease } from '../lease';
import { createEmbeddedStore } from '../store/embedded';
import { createMongoStore, dropMongoDatabase } from '../store/mongo';
import type { DocumentStore } from '../store/types';
import { createEventStore, type ServiceEventStore } from './event-store';
import { createRelay, type Relay } from './relay';
import { silentLog, waitFor } from './testing';
import type { BusMessage, EventBus } from './types';

const log = silentLog();
const LEASE_MS = 600;
const POLL_MS = 50;

type Published = { pod: string; stream: string; id: string; n: number };

/** Everything published, in the bus's order, with the pod that published it. */
function recordingBus(sink: Published[], pod: string, isDead: () => boolean): EventBus {
  return {
    kind: 'recording',
    async publish(messages: BusMessage[]) {
      // A publish takes a moment, so the two relays' work would interleave if both published.
      await new Promise((resolve) => setTimeout(resolve, 2));
      if (isDead()) throw new Error(`${pod} is dead`);
      for (const m of messages) {
        const event = JSON.parse(m.value) as { id: string; stream: string; data: { n: number } };
        sink.push({ pod, stream: event.stream, id: event.id, n: event.data.n });
      }
    },
  } as unknown as EventBus;
}

/** The pod's view of the shared store: after kill(), every call fails, as if the process were gone. */
function killableStore(store: DocumentStore, isDead: () => boolean): DocumentStore {
  const guard = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(obj, key, receiver) {
        const value = Reflect.get(obj, key, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (isDead()) return Promise.reject(new Error('the pod is dead'));
          return (value as (...a: unknown[]) => unknown).apply(obj, args);
        };
      },
    });
  return {
    kind: store.kind,
    collection: (name) => guard(store.collection(name)),
    ping: () => store.ping(),
    close: async () => undefined,
  } as DocumentStore;
}

interface Pod {
  name: string;
  events: ServiceEventStore;
  relay: Relay;
  kill(): void;
}

interface Leg {
  name: string;
  /** One store object per pod (the same object on embedded, a client each on MongoDB). */
  open(): Promise<{ storeFor(pod: string): Promise<DocumentStore>; close(): Promise<void> }>;
}

const mongoUrl = process.env.MONGODB_URL;
if (!mongoUrl) console.log('[integration] relay lease / mongodb: skipped: no MONGODB_URL');

const legs: Leg[] = [
  {
    name: 'embedded',
    async open() {
      const store = createEmbeddedStore();
      return { storeFor: async () => store, close: () => store.close() };
    },
  },
  ...(mongoUrl
    ? [
        {
          name: 'mongodb',
          async open() {
            const dbName = `nudge_lease_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
            const opened: DocumentStore[] = [];
            return {
              async storeFor() {
                const store = await createMongoStore({ url: mongoUrl, dbName });
                opened.push(store);
                return store;
              },
              async close() {
                for (const store of opened) await store.close();
                await dropMongoDatabase(mongoUrl, dbName);
              },
            };
          },
        } satisfies Leg,
      ]
    : []),
];

for (const leg of legs) {
  describe(`relay lease: two replicas on one store (${leg.name})`, () => {
    const cleanups: Array<() => Promise<void> | void> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
      cleanups.length = 0;
    });

    const setup = async () => {
      const shared = await leg.open();
      cleanups.push(() => shared.close());
      const published: Published[] = [];
      const pod = async (name: string): Promise<Pod> => {
        let dead = false;
        const store = killableStore(await shared.storeFor(name), () => dead);
        // orders.Placed.v1 is a made-up type, not in the contracts: the append's schema check is off here.
        const events = createEventStore({ store, service: 'orders', log, validate: () => {} });
        const relay = createRelay({
          store,
          eventStore: events,
          bus: recordingBus(published, name, () => dead),
          service: 'orders',
          log,
          pollMs: POLL_MS,
          retryBaseMs: 10,
          retryMaxMs: 50,
          leaseMs: LEASE_MS,
          batchSize: 5,
          holder: name,
        });
        relay.start();
        cleanups.push(async () => {
          await relay.stop();
          events.close();
        });
        return {
          name,
          events,
          relay,
          kill() {
            dead = true;
          },
        };
      };
      return { published, pod };
    };

    /**
     * Appends `count` commits, alternating pods, round robin over `streams` streams. An append on a dead pod fails
     * and is skipped (the stream's version is read again before its next append).
     */
    const appendAlternating = async (
      pods: Pod[],
      from: number,
      count: number,
      versions: Map<string, number | undefined>,
      streams = 5,
    ) => {
      for (let i = from; i < from + count; i++) {
        const stream = `order-${i % streams}`;
        const author = pods[i % pods.length]!;
        try {
          const version = versions.get(stream) ?? (await author.events.readStream(stream)).length;
          await author.events.append(stream, version, [{ type: 'orders.Placed.v1', data: { n: i } }]);
          versions.set(stream, version + 1);
        } catch {
          versions.set(stream, undefined);
        }
        if (i % 4 === 0) await new Promise((resolve) => setTimeout(resolve, 3)); // let the relays run between
      }
    };

    /** Every event of every commit in the store (those a dead pod wrote included). */
    const committedIds = async (pod: Pod) => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push(...(await pod.events.readStream(`order-${i}`)).map((e) => e.id));
      return ids;
    };

    /** Per stream, the order in which events first reached the bus equals their append order. */
    const expectStreamOrder = (published: Published[]) => {
      const firstSeen = new Map<string, number[]>();
      const seen = new Set<string>();
      for (const p of published) {
        if (seen.has(p.id)) continue;
        seen.add(p.id);
        firstSeen.set(p.stream, [...(firstSeen.get(p.stream) ?? []), p.n]);
      }
      for (const ns of firstSeen.values()) expect(ns).toEqual([...ns].sort((a, b) => a - b));
    };

    it('one relay publishes; when it dies unreleased, the other takes over within the lease and nothing is lost or reordered', async () => {
      const { published, pod } = await setup();
      const a = await pod('pod-a');
      const b = await pod('pod-b');
      const versions = new Map<string, number | undefined>();

      await appendAlternating([a, b], 0, 40, versions);
      await waitFor(() => new Set(published.map((p) => p.id)).size === 40, 5_000, 'the first 40 events');
      const leaders = [a, b].filter((p) => p.relay.isLeader());
      expect(leaders).toHaveLength(1);
      // Only the lease holder published, though both pods appended and both relays were woken.
      expect(new Set(published.map((p) => p.pod))).toEqual(new Set([leaders[0]!.name]));

      const leader = leaders[0]!;
      const survivor = leader === a ? b : a;
      // The leader dies mid-stream: commits keep coming on both pods, then only on the survivor.
      const racing = appendAlternating([a, b], 40, 20, versions);
      await new Promise((resolve) => setTimeout(resolve, 15));
      leader.kill();
      const killedAt = Date.now();
      await racing;
      await appendAlternating([survivor], 60, 30, versions);

      await waitFor(() => survivor.relay.isLeader(), LEASE_MS * 3, 'the survivor to take the lease');
      const takeoverMs = Date.now() - killedAt;
      // Within the lease plus one poll; the slack is for a loaded machine.
      expect(takeoverMs).toBeLessThanOrEqual(LEASE_MS + POLL_MS + 400);

      const committed = new Set(await committedIds(survivor));
      expect(committed.size).toBeGreaterThanOrEqual(40 + 10 + 30); // the dead pod's appends after its death failed
      await waitFor(
        () => [...committed].every((id) => published.some((p) => p.id === id)),
        5_000,
        'every committed event on the bus',
      );
      expectStreamOrder(published);
      // Publishers in bus order: the dead leader's messages, then the survivor's; never interleaved.
      const switches = published.filter((p, i) => i > 0 && p.pod !== published[i - 1]!.pod);
      expect(switches.length).toBeLessThanOrEqual(1);
      expect(published.at(-1)?.pod).toBe(survivor.name);
      console.log(
        `[integration] relay lease (${leg.name}): takeover after ${takeoverMs} ms (lease ${LEASE_MS} ms); ` +
          `${published.length} messages for ${committed.size} events`,
      );
    });

    it('a relay that stops gracefully releases the lease: the other takes over at its next poll', async () => {
      const { published, pod } = await setup();
      const a = await pod('pod-a');
      await waitFor(() => a.relay.isLeader(), 2_000, 'pod-a to lead');
      const b = await pod('pod-b');
      const versions = new Map<string, number | undefined>();
      await appendAlternating([a, b], 0, 6, versions);
      await waitFor(() => published.length === 6, 2_000, 'six events');
      expect(b.relay.isLeader()).toBe(false);

      const stoppedAt = Date.now();
      await a.relay.stop();
      await waitFor(() => b.relay.isLeader(), LEASE_MS, 'pod-b to take the released lease');
      expect(Date.now() - stoppedAt).toBeLessThan(LEASE_MS / 2);
      await appendAlternating([b], 6, 3, versions);
      await waitFor(() => published.length === 9, 2_000, 'nine events');
      expect(published.slice(6).every((p) => p.pod === 'pod-b')).toBe(true);
      expectStreamOrder(published);
    });
  });
}

describe('lease', () => {
  it('admits one holder; the other takes over only after the expiry; the old holder stops before it', async () => {
    const store = createEmbeddedStore();
    let now = 1_000_000;
    const clock = () => now;
    const a = createLease({ store, name: 'job', ttlMs: 1_000, holder: 'a', clock });
    const b = createLease({ store, name: 'job', ttlMs: 1_000, holder: 'b', clock });
    const [gotA, gotB] = await Promise.all([a.acquire(), b.acquire()]);
    expect([gotA, gotB].filter(Boolean)).toHaveLength(1);
    const [first, second] = gotA ? [a, b] : [b, a];

    now += 500;
    expect(await first.acquire()).toBe(true); // renewal: expires at +1500
    now += 900;
    expect(await second.acquire()).toBe(false); // still within the renewed lease
    expect(first.held()).toBe(false); // 900 ms after the renewal: past ttl - margin (800), it stops acting
    now += 101;
    expect(await second.acquire()).toBe(true); // expired: taken over
    expect(await first.acquire()).toBe(false);
    expect(second.held()).toBe(true);
    await second.release();
    expect(await first.acquire()).toBe(true); // released: free at once

    // A process restarted after a crash with the same holder id (the embedded runtime's) takes it back at once.
    const restarted = createLease({ store, name: 'job', ttlMs: 1_000, holder: first.holder, clock });
    expect(await restarted.acquire()).toBe(true);
    expect(await second.acquire()).toBe(false);
    await store.close();
  });
});
