import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createInProcessBus, DEFAULT_LANES } from '../bus/in-process';
import { createKafkaBus } from '../bus/kafka';
import { ConcurrencyError } from '../errors';
import { createEmbeddedStore } from '../store/embedded';
import type { DocumentStore } from '../store/types';
import { engine } from '../testing/engines';
import { type CommitDoc, EVENTS, PENDING, PROCESSED_EVENTS, pendingOf, pendingRange } from './commits';
import { createConsumer } from './consumer';
import { createEventStore, type ServiceEventStore } from './event-store';
import { createRelay, type Relay } from './relay';
import { counterProjection, readCounters, silentLog, waitFor } from './testing';
import { type BusMessage, type EventBus, type EventEnvelope, topicFor } from './types';

const log = silentLog();
type Received = { _id: string; count: number; ns: number[] };

/** The bus a world runs on: the in-process one (a store of its own), or the run's Kafka broker. */
interface BusLeg {
  name: string;
  /** Bounds every "eventually" (a Kafka consumer group needs seconds to join). */
  waitMs: number;
  /** Suffix of the world's service and group names: unique on a broker shared by the tests. */
  unique: boolean;
  open(): { bus: EventBus; stores: DocumentStore[] };
}

const inProcess: BusLeg = {
  name: 'in-process',
  waitMs: 5_000,
  unique: false,
  open() {
    const store = createEmbeddedStore();
    return { bus: createInProcessBus({ store, retryBaseMs: 10, log }), stores: [store] };
  },
};

const kafka = await engine('kafka');
if (!kafka.available)
  console.log(`[integration] events / relay and consumer on kafka: skipped: ${kafka.reason}`);
const legs: BusLeg[] = [
  inProcess,
  ...(kafka.available
    ? [
        {
          name: 'kafka',
          waitMs: 45_000,
          unique: true,
          open: () => ({
            bus: createKafkaBus({
              brokers: (kafka.env?.KAFKA_BROKERS ?? '').split(','),
              clientId: 'nudge-events-test',
              log,
              retryBaseMs: 10,
              lanes: DEFAULT_LANES,
            }),
            stores: [],
          }),
        } satisfies BusLeg,
      ]
    : []),
];

/** Two "services" in one test: orders (event store, projection, relay) and mailer (a consumer with its own store). */
function world(leg: BusLeg = inProcess) {
  const cleanups: Array<() => Promise<void> | void> = [];
  const suffix = leg.unique ? `-${randomBytes(4).toString('hex')}` : '';
  const service = `orders${suffix}`;
  const topic = topicFor(service);
  const ordersStore = createEmbeddedStore();
  const mailerStore = createEmbeddedStore();
  const { bus, stores: busStores } = leg.open();
  cleanups.push(() => bus.close());

  const makeEventStore = (): ServiceEventStore => {
    const events = createEventStore({ store: ordersStore, service, log, validate: () => {} });
    cleanups.push(() => events.close());
    return events;
  };
  const makeRelay = (events: ServiceEventStore | undefined, onBus: EventBus = bus): Relay => {
    const relay = createRelay({
      store: ordersStore,
      eventStore: events,
      bus: onBus,
      service,
      log,
      pollMs: 60_000, // prompt publishing must come from notify, not from the poll
      retryBaseMs: 10,
      retryMaxMs: 50,
    });
    cleanups.push(() => relay.stop());
    return relay;
  };

  const received = mailerStore.collection<Received>('received');
  const handled: EventEnvelope[] = [];
  const startMailer = async (
    groupId = 'mailer',
    expiry: { processedRetentionMs?: number; clock?: () => Date } = {},
  ) => {
    const consumer = createConsumer({
      ...expiry,
      store: mailerStore,
      bus,
      groupId: `${groupId}${suffix}`,
      topics: [topic],
      log,
      check: (type, data) => ({ type, data }),
      handlers: {
        // deliberately not idempotent: a duplicate run would show in count and ns
        'orders.Placed.v1': async (event) => {
          handled.push(event);
          await received.updateOne(
            { _id: event.stream },
            { $inc: { count: 1 }, $push: { ns: (event.data as { n: number }).n } },
            { upsert: true },
          );
        },
      },
    });
    await consumer.start();
    cleanups.push(() => consumer.stop());
    return consumer;
  };
  const receivedBy = async (stream: string) => received.findOne({ _id: stream });
  const totalReceived = async () => (await received.find({})).reduce((sum, r) => sum + r.count, 0);

  return {
    topic,
    suffix,
    waitMs: leg.waitMs,
    ordersStore,
    mailerStore,
    bus,
    makeEventStore,
    makeRelay,
    startMailer,
    handled,
    receivedBy,
    totalReceived,
    async close() {
      for (const fn of cleanups.reverse()) await fn();
      for (const store of [ordersStore, mailerStore, ...busStores] as DocumentStore[]) await store.close();
    },
  };
}

const placed = (n: number) => ({ type: 'orders.Placed.v1', data: { n } });

/** A bus message of an order stream's first event, published by hand (as a relay would); `value` overrides its body. */
const orderMessage = (stream: string, id: string, type: string, value?: string): BusMessage => ({
  topic: topicFor('orders'),
  key: stream,
  value:
    value ??
    JSON.stringify({
      id,
      type,
      stream,
      version: 1,
      occurredAt: new Date().toISOString(),
      actor: null,
      data: { n: 1 },
      meta: {},
    }),
  headers: { 'event-id': id, 'event-type': type },
});

for (const leg of legs) {
  describe(`relay -> bus -> consumer (${leg.name})`, () => {
    let w: ReturnType<typeof world>;
    afterEach(async () => {
      await w.close();
    });

    it('append -> projection visible at once -> another service consumes it via the relay and the bus', async () => {
      w = world(leg);
      const events = w.makeEventStore();
      events.register(counterProjection(w.ordersStore));
      await events.catchUp();
      w.makeRelay(events).start();
      await w.startMailer();

      const [event] = await events.append('order-1', 0, [placed(1)], {
        actor: 'user-1',
        requestId: 'req-77',
      });
      expect(await readCounters(w.ordersStore)).toEqual([
        { _id: 'order-1', count: 1, lastVersion: 1, types: ['orders.Placed.v1'] },
      ]);

      await waitFor(async () => (await w.receivedBy('order-1'))?.count === 1, w.waitMs, 'the consumer');
      expect(w.handled).toEqual([event]);
      // The processed-id record is written after the handler's effect: wait for it rather than race it.
      await waitFor(
        async () =>
          (await w.mailerStore
            .collection(PROCESSED_EVENTS)
            .findOne({ _id: `mailer${w.suffix}:${event!.id}` })) !== null,
        w.waitMs,
        'the processed-id record',
      );
      expect(
        await w.mailerStore.collection(PROCESSED_EVENTS).findOne({ _id: `mailer${w.suffix}:${event!.id}` }),
      ).toMatchObject({
        eventId: event!.id,
        type: 'orders.Placed.v1',
      });
      await waitFor(
        async () => (await w.ordersStore.collection(PENDING).countDocuments(pendingRange('pub'))) === 0,
        w.waitMs,
        'the commit marked published',
      );
    });

    it('the relay survives a bus outage: everything is published after it recovers, in order, nothing lost', async () => {
      w = world(leg);
      let down = true;
      let refused = 0;
      const flaky: EventBus = {
        ...w.bus,
        kind: 'flaky',
        async publish(messages: BusMessage[]) {
          if (down) {
            refused += 1;
            throw new Error('bus unavailable (simulated)');
          }
          return w.bus.publish(messages);
        },
      };
      const events = w.makeEventStore();
      const relay = w.makeRelay(events, flaky);
      relay.start();
      await w.startMailer();

      for (let i = 0; i < 6; i++) {
        await events.append('order-a', i, [placed(i)]);
        await events.append('order-b', i * 2, [placed(100 + i), placed(200 + i)]);
      }
      await waitFor(() => refused >= 3, w.waitMs, 'several refused publishes');
      await expect(relay.flush()).rejects.toThrow(/simulated/);
      expect(await w.totalReceived()).toBe(0);
      expect(await w.ordersStore.collection(PENDING).countDocuments(pendingRange('pub'))).toBe(12);

      down = false;
      await waitFor(async () => (await w.totalReceived()) === 18, w.waitMs, 'all 18 events after recovery');
      expect((await w.receivedBy('order-a'))?.ns).toEqual([0, 1, 2, 3, 4, 5]);
      expect((await w.receivedBy('order-b'))?.ns).toEqual([
        100, 200, 101, 201, 102, 202, 103, 203, 104, 204, 105, 205,
      ]);
      expect(await w.ordersStore.collection(PENDING).countDocuments(pendingRange('pub'))).toBe(0);
    });

    it('after a crash, a new relay on the same store publishes what was left; re-publishing changes nothing', async () => {
      w = world(leg);
      const events = w.makeEventStore();
      const crashed = w.makeRelay(events); // never started: the process died before publishing
      await events.append('order-c', 0, [placed(1), placed(2)]);
      await events.append('order-d', 0, [placed(3)]);
      await crashed.stop();

      const restartedEvents = w.makeEventStore();
      const relay = w.makeRelay(restartedEvents);
      relay.start();
      await w.startMailer();
      await waitFor(async () => (await w.totalReceived()) === 3, w.waitMs, 'the pending events');

      // A crash after the publish but before the commit was marked published: the next relay sends them again.
      const commits = await w.ordersStore.collection<CommitDoc>(EVENTS).find({});
      await w.ordersStore.collection(PENDING).insertMany(commits.map((c) => pendingOf(c, 'pub', Date.now())));
      expect(await relay.flush()).toBe(3);
      await restartedEvents.append('order-d', 1, [placed(4)]);
      await waitFor(async () => (await w.receivedBy('order-d'))?.count === 2, w.waitMs, 'the later event');
      expect((await w.receivedBy('order-c'))?.ns).toEqual([1, 2]);
      expect((await w.receivedBy('order-d'))?.ns).toEqual([3, 4]);
      expect(w.handled).toHaveLength(4);
    });

    it('a handler that throws is retried until it succeeds, and its effect happens once', async () => {
      w = world(leg);
      const events = w.makeEventStore();
      w.makeRelay(events).start();
      let failures = 2;
      const seen: string[] = [];
      const consumer = createConsumer({
        store: w.mailerStore,
        bus: w.bus,
        groupId: `flaky-consumer${w.suffix}`,
        topics: [w.topic],
        log,
        check: (type, data) => ({ type, data }),
        handlers: {
          'orders.Placed.v1': async (event) => {
            if (failures > 0) {
              failures -= 1;
              throw new Error('handler failure (expected by the test)');
            }
            seen.push(event.id);
          },
        },
      });
      await consumer.start();
      const [event] = await events.append('order-r', 0, [placed(1)]);
      await waitFor(() => seen.length === 1, w.waitMs, 'the retried handler');
      expect(seen).toEqual([event!.id]);
      await consumer.stop();
    });
  });
}

describe('event mechanism end to end (embedded adapters)', () => {
  let w: ReturnType<typeof world>;
  afterEach(async () => {
    await w.close();
  });

  it('optimistic concurrency: of two appends at the same version one wins, the other gets a 409', async () => {
    w = world();
    const events = w.makeEventStore();
    const relay = w.makeRelay(events);
    await events.append('order-2', 0, [placed(1)]);
    const [a, b] = await Promise.allSettled([
      events.append('order-2', 1, [placed(2)]),
      events.append('order-2', 1, [placed(3)]),
    ]);
    const outcomes = [a, b].map((r) => r?.status);
    expect(outcomes.sort()).toEqual(['fulfilled', 'rejected']);
    const loser = [a, b].find((r): r is PromiseRejectedResult => r?.status === 'rejected')!;
    expect(loser.reason).toBeInstanceOf(ConcurrencyError);
    expect((loser.reason as ConcurrencyError).httpStatus).toBe(409);

    await w.startMailer();
    await relay.flush();
    await waitFor(async () => (await w.totalReceived()) === 2, 5_000, 'two events consumed');
    const winner = (await events.readStream('order-2'))[1]!.data as { n: number };
    expect((await w.receivedBy('order-2'))?.ns).toEqual([1, winner.n]);
  });

  it('the read model rebuilt from the event store equals the live one', async () => {
    w = world();
    const events = w.makeEventStore();
    events.register(counterProjection(w.ordersStore));
    await events.catchUp();
    w.makeRelay(events).start();
    for (let i = 0; i < 10; i++) await events.append(`order-${i % 4}`, Math.floor(i / 4), [placed(i)]);
    const live = await readCounters(w.ordersStore);
    await w.ordersStore.collection('counters').drop();
    await events.rebuild();
    expect(await readCounters(w.ordersStore)).toEqual(live);
  });

  it('a consumer handles a duplicate delivery once, and records nothing for events it has no handler for', async () => {
    w = world();
    await w.startMailer();
    const envelope: EventEnvelope = {
      id: 'evt-dup-1',
      type: 'orders.Placed.v1',
      stream: 'order-x',
      version: 1,
      occurredAt: new Date().toISOString(),
      actor: null,
      data: { n: 9 },
      meta: {},
    };
    const other: EventEnvelope = { ...envelope, id: 'evt-other-1', type: 'orders.Unknown.v1', version: 2 };
    const asMessage = (e: EventEnvelope): BusMessage => ({
      topic: topicFor('orders'),
      key: e.stream,
      value: JSON.stringify(e),
      headers: { 'event-id': e.id, 'event-type': e.type },
    });
    await w.bus.publish([asMessage(envelope), asMessage(envelope), asMessage(other)]);
    await w.bus.publish([asMessage(envelope)]);
    const processed = w.mailerStore.collection(PROCESSED_EVENTS);
    await waitFor(async () => (await processed.countDocuments({})) === 1, 5_000, 'the handled id recorded');
    const sentinel: EventEnvelope = { ...envelope, id: 'evt-sentinel', stream: 'order-y' };
    await w.bus.publish([asMessage(sentinel)]);
    // the in-process bus delivers a topic in offset order: once the sentinel is in, every duplicate was seen
    await waitFor(
      async () => (await w.receivedBy('order-y'))?.count === 1,
      5_000,
      'the sentinel after the duplicates',
    );
    expect(await w.receivedBy('order-x')).toEqual({ _id: 'order-x', count: 1, ns: [9] });
    expect(w.handled.map((e) => e.id)).toEqual(['evt-dup-1', 'evt-sentinel']);
    expect(await processed.findOne({ _id: 'mailer:evt-other-1' })).toBeNull();
    // evt-dup-1 and the sentinel (recorded just after the sentinel's handler ran)
    await waitFor(async () => (await processed.countDocuments({})) === 2, 5_000, 'the two handled ids');
  });

  it('a consumer records no ids for the types it declares idempotent, and runs their handler on every delivery', async () => {
    w = world();
    const seen: string[] = [];
    const consumer = createConsumer({
      store: w.mailerStore,
      bus: w.bus,
      groupId: 'idempotent-consumer',
      topics: [topicFor('orders')],
      log,
      check: (type, data) => ({ type, data }),
      idempotentTypes: ['orders.Placed.v1'],
      handlers: {
        'orders.Placed.v1': async (event) => {
          seen.push(event.id);
        },
        'orders.Shipped.v1': async (event) => {
          seen.push(event.id);
        },
      },
    });
    await consumer.start();
    const message = (id: string, type: string) => orderMessage('order-i', id, type);
    await w.bus.publish([
      message('placed-1', 'orders.Placed.v1'),
      message('placed-1', 'orders.Placed.v1'),
      message('shipped-1', 'orders.Shipped.v1'),
      message('shipped-1', 'orders.Shipped.v1'),
    ]);
    await waitFor(() => seen.length === 3, 5_000, 'three handler runs');
    const processed = w.mailerStore.collection(PROCESSED_EVENTS);
    await waitFor(async () => (await processed.countDocuments({})) === 1, 5_000, 'the one recorded id');
    expect(seen).toEqual(['placed-1', 'placed-1', 'shipped-1']);
    expect(await processed.findOne({ _id: 'idempotent-consumer:placed-1' })).toBeNull();
    expect(await processed.findOne({ _id: 'idempotent-consumer:shipped-1' })).not.toBeNull();
    await consumer.stop();
  });

  it('a consumer skips a message whose type no handler takes without parsing it', async () => {
    w = world();
    const checked: string[] = [];
    const seen: string[] = [];
    const consumer = createConsumer({
      store: w.mailerStore,
      bus: w.bus,
      groupId: 'skipping-consumer',
      topics: [topicFor('orders')],
      log,
      check: (type, data) => {
        checked.push(type);
        return { type, data };
      },
      handlers: {
        'orders.Placed.v1': async (event) => {
          seen.push(event.id);
        },
      },
    });
    await consumer.start();
    const message = (id: string, type: string, value?: string) => orderMessage('order-s', id, type, value);
    await w.bus.publish([
      message('other-1', 'orders.Audited.v1'),
      message('other-2', 'orders.Audited.v1', 'not json at all'),
      message('placed-s', 'orders.Placed.v1'),
    ]);
    await waitFor(() => seen.length === 1, 5_000, 'the handled message');
    expect(checked).toEqual(['orders.Placed.v1']);
    expect(
      await w.mailerStore.collection(PROCESSED_EVENTS).findOne({ _id: 'skipping-consumer:other-1' }),
    ).toBeNull();
    await consumer.stop();
  });

  it('serializeBy: events of different keys but one name run one after another, in arrival order; other names overlap', async () => {
    w = world();
    const inFlight = new Map<string, number>();
    let most = 0;
    let mostForOne = 0;
    const order: string[] = [];
    const consumer = createConsumer({
      store: w.mailerStore,
      bus: w.bus,
      groupId: 'serialized',
      topics: [topicFor('orders')],
      log,
      check: (type, data) => ({ type, data }),
      idempotentTypes: ['orders.Placed.v1'],
      serializeBy: (event) => (event.data as { user: string }).user,
      handlers: {
        'orders.Placed.v1': async (event) => {
          const { user } = event.data as { user: string };
          inFlight.set(user, (inFlight.get(user) ?? 0) + 1);
          mostForOne = Math.max(mostForOne, inFlight.get(user) ?? 0);
          most = Math.max(
            most,
            [...inFlight.values()].reduce((a, b) => a + b, 0),
          );
          await new Promise((resolve) => setTimeout(resolve, 15));
          inFlight.set(user, (inFlight.get(user) ?? 0) - 1);
          order.push(event.id);
        },
      },
    });
    await consumer.start();
    // Six streams (bus keys), two users: the bus runs the six keys at once.
    await w.bus.publish(
      Array.from({ length: 6 }, (_, i): BusMessage => {
        const id = `e${i}`;
        return {
          topic: topicFor('orders'),
          key: `order-${i}`,
          value: JSON.stringify({
            id,
            type: 'orders.Placed.v1',
            stream: `order-${i}`,
            version: 1,
            occurredAt: new Date().toISOString(),
            actor: null,
            data: { user: i % 2 === 0 ? 'even' : 'odd' },
            meta: {},
          }),
          headers: { 'event-id': id, 'event-type': 'orders.Placed.v1' },
        };
      }),
    );
    await waitFor(() => order.length === 6, 5_000, 'six handled');
    expect(mostForOne).toBe(1);
    expect(most).toBe(2);
    expect(order.filter((id) => ['e0', 'e2', 'e4'].includes(id))).toEqual(['e0', 'e2', 'e4']);
    expect(order.filter((id) => ['e1', 'e3', 'e5'].includes(id))).toEqual(['e1', 'e3', 'e5']);
    await consumer.stop();
  });

  it('a consumer sets aside at once, with its error, a message that is not an event, an event whose text is not valid Unicode and one that does not match its contract; the stream goes on', async () => {
    w = world();
    const consumer = createConsumer({
      store: w.mailerStore,
      bus: w.bus,
      groupId: 'strict-consumer',
      topics: [topicFor('orders')],
      log,
      check: (type, data) => {
        if ((data as { n?: unknown }).n === 'bad') throw new Error('n: expected number, received string');
        return { type, data };
      },
      handlers: {
        'orders.Placed.v1': async (event) => {
          w.handled.push(event);
        },
      },
    });
    await consumer.start();
    const envelope = (id: string, data: unknown, version: number) =>
      JSON.stringify({
        id,
        type: 'orders.Placed.v1',
        stream: 'order-p',
        version,
        occurredAt: new Date().toISOString(),
        actor: null,
        data,
        meta: {},
      });
    await w.bus.publish([
      orderMessage('order-p', 'p1', 'orders.Placed.v1', envelope('p1', { n: 1 }, 1)),
      orderMessage('order-p', 'p2', 'orders.Placed.v1', 'not json'),
      orderMessage('order-p', 'p3', 'orders.Placed.v1', envelope('p3', { n: 3, note: 'x\ud800' }, 2)),
      orderMessage('order-p', 'p4', 'orders.Placed.v1', envelope('p4', { n: 'bad' }, 3)),
      orderMessage('order-p', 'p5', 'orders.Placed.v1', envelope('p5', { n: 5 }, 4)),
    ]);
    const started = Date.now();
    await waitFor(() => w.handled.some((e) => e.id === 'p5'), 5_000, 'the event behind the poisoned ones');
    // no redelivery backoff spent on them (the bus's default retries would take seconds)
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(w.handled.map((e) => e.id)).toEqual(['p1', 'p5']);
    const letters = await w.bus.deadLetters('strict-consumer');
    expect(letters.map((l) => [l.message.headers['event-id'], l.attempts, l.error])).toEqual([
      ['p2', 1, 'PoisonMessageError: not an event envelope'],
      [
        'p3',
        1,
        'PoisonMessageError: data.note in the event is not valid Unicode text (it holds a lone surrogate)',
      ],
      [
        'p4',
        1,
        'PoisonMessageError: the event does not match its contract: n: expected number, received string',
      ],
    ]);
    await consumer.stop();
  });

  it('expires processed event ids older than the retention, so the collection shrinks', async () => {
    w = world();
    let now = new Date('2026-01-01T00:00:00Z');
    await w.startMailer('mailer', { processedRetentionMs: 60_000, clock: () => now });
    const processed = w.mailerStore.collection(PROCESSED_EVENTS);
    const message = (id: string, stream: string): BusMessage => ({
      topic: topicFor('orders'),
      key: stream,
      value: JSON.stringify({
        id,
        type: 'orders.Placed.v1',
        stream,
        version: 1,
        occurredAt: now.toISOString(),
        actor: null,
        data: { n: 1 },
        meta: {},
      }),
      headers: { 'event-id': id, 'event-type': 'orders.Placed.v1' },
    });
    await w.bus.publish(Array.from({ length: 5 }, (_, i) => message(`old-${i}`, `order-old-${i}`)));
    await waitFor(async () => (await processed.countDocuments({})) === 5, 5_000, 'five ids recorded');

    now = new Date(now.getTime() + 2 * 60_000); // past the retention
    await w.bus.publish([message('new-1', 'order-new-1')]);
    await waitFor(async () => (await w.receivedBy('order-new-1'))?.count === 1, 5_000, 'the new event');
    await waitFor(async () => (await processed.countDocuments({})) === 1, 5_000, 'the old ids expired');
    expect(await processed.findOne({ _id: 'mailer:new-1' })).toMatchObject({ eventId: 'new-1' });
    expect(await processed.findOne({ _id: 'mailer:old-0' })).toBeNull();
  });
});
