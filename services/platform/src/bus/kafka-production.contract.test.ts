// The Kafka bus where production hurts, on the run's real broker: the topics' layout,
// a message the broker refuses for good (and the relay behind it), a stalled consumer, the /metrics scrape's dead
// letter reads, batch sizes, and an engine outage behind a batch consumer.
import { randomBytes } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, describe, expect, it } from 'vitest';
import { createEventStore } from '../events/event-store';
import { createRelay, RELAY_REFUSED } from '../events/relay';
import { silentLog, waitFor } from '../events/testing';
import { type BusMessage, type EventBus, topicFor } from '../events/types';
import { processMetrics } from '../metrics';
import { createEmbeddedStore } from '../store/embedded';
import { engine } from '../testing/engines';
import { EngineUnavailableError } from './dead-letter';
import { createKafkaBus, type KafkaBusOptions } from './kafka';

const kafka = await engine('kafka');
if (!kafka.available) console.log(`[contract] kafka in production: skipped: ${kafka.reason}`);
const brokers = (kafka.env?.KAFKA_BROKERS ?? '').split(',').filter(Boolean);

const fresh = (what: string) => `prod.${what}.${randomBytes(5).toString('hex')}`;
const msg = (topic: string, key: string, n: number, bytes = 10): BusMessage => ({
  topic,
  key,
  value: JSON.stringify({ n, pad: 'x'.repeat(bytes) }),
  headers: { 'event-id': `${key}-${n}` },
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const open: { close(): Promise<void> }[] = [];
const bus = (extra: Partial<KafkaBusOptions> = {}): EventBus => {
  const made = createKafkaBus({
    brokers,
    clientId: 'nudge-prod-test',
    log: silentLog(),
    retryBaseMs: 20,
    ...extra,
  });
  open.push(made);
  return made;
};
const admin = async () => {
  const client = new Kafka({ brokers, clientId: 'nudge-prod-admin', logLevel: logLevel.NOTHING }).admin();
  await client.connect();
  open.push({ close: () => client.disconnect() });
  return client;
};
afterAll(async () => {
  for (const o of open.reverse()) await o.close().catch(() => undefined);
}, 60_000);

/** Collects what a subscription receives. */
function collector() {
  const got: BusMessage[] = [];
  return { got, handler: async (m: BusMessage) => void got.push(m) };
}

describe.runIf(kafka.available)('the Kafka bus in production conditions (real broker)', () => {
  it('creates topics with the partitions, replication and min ISR it is given', async () => {
    const topic = fresh('layout');
    // Subscribing creates the topic (publishing to it would need two in-sync replicas of this one broker).
    const b = bus({ partitions: 7, replicationFactor: 1, minInsyncReplicas: 2 });
    open.push(await b.subscribe(fresh('g'), [topic], async () => undefined));
    const client = await admin();
    const [meta] = (await client.fetchTopicMetadata({ topics: [topic] })).topics;
    expect(meta?.partitions).toHaveLength(7);
    expect(meta?.partitions.every((p) => p.replicas.length === 1)).toBe(true);
    const configs = await client.describeConfigs({
      resources: [{ type: 2, name: topic, configNames: ['min.insync.replicas'] }],
      includeSynonyms: false,
    });
    expect(configs.resources[0]?.configEntries[0]?.configValue).toBe('2');
  });

  it('refuses a message too large for its topic alone: the ones around it and every later publish go through', async () => {
    const topic = fresh('too-large');
    const client = await admin();
    await client.createTopics({
      topics: [{ topic, numPartitions: 1, configEntries: [{ name: 'max.message.bytes', value: '2048' }] }],
    });
    const b = bus();
    const result = await b.publish([msg(topic, 'k', 1), msg(topic, 'k', 2, 8_000), msg(topic, 'k', 3)]);
    expect(result?.refused.map((r) => r.message.headers['event-id'])).toEqual(['k-2']);
    expect(result?.refused[0]?.error).toMatch(/larger than the max message size/i);
    // The producer is not wedged: a later publish is accepted.
    expect(await b.publish([msg(topic, 'k', 4)])).toBeUndefined();
    const { got, handler } = collector();
    open.push(await b.subscribe(fresh('g'), [topic], handler));
    await waitFor(() => got.length === 3, 45_000, 'the three small messages');
    expect(got.map((m) => m.headers['event-id'])).toEqual(['k-1', 'k-3', 'k-4']);
  }, 90_000);

  it('sets aside an event the bus refuses for good; the relay publishes the ones behind it', async () => {
    const service = fresh('svc');
    const topic = topicFor(service);
    const client = await admin();
    await client.createTopics({
      topics: [{ topic, numPartitions: 1, configEntries: [{ name: 'max.message.bytes', value: '4096' }] }],
    });
    const store = createEmbeddedStore();
    open.push(store);
    const b = bus();
    const events = createEventStore({ store, service, log: silentLog(), validate: () => {} });
    const relay = createRelay({
      store,
      eventStore: events,
      bus: b,
      service,
      log: silentLog(),
      retryBaseMs: 10,
    });
    open.push({ close: () => relay.stop() });
    relay.start();
    await events.append('s-1', 0, [{ type: 'svc.Big.v1', data: { text: 'x'.repeat(10_000) } }]);
    await events.append('s-2', 0, [{ type: 'svc.Small.v1', data: { n: 1 } }]);
    await events.append('s-3', 0, [{ type: 'svc.Small.v1', data: { n: 2 } }]);
    const { got, handler } = collector();
    open.push(await b.subscribe(fresh('g'), [topic], handler));
    await waitFor(() => got.length === 2, 45_000, 'the events behind the refused one');
    const refused = await store.collection<{ _id: string; error: string }>(RELAY_REFUSED).find({});
    expect(refused).toHaveLength(1);
    expect(refused[0]?.error).toMatch(/larger than the max message size/i);
    const metrics = await processMetrics().registry.getSingleMetricAsString(
      'nudge_relay_refused_events_total',
    );
    expect(metrics).toContain(`service="${service}"} 1`);
  }, 90_000);

  it('starts a stalled consumer again: the message its handler held is handled', async () => {
    const topic = fresh('stall');
    const b = bus({ stallMs: 3_000 });
    let calls = 0;
    const handled: string[] = [];
    open.push(
      await b.subscribe(fresh('g'), [topic], async (m) => {
        calls += 1;
        // The first delivery waits on something that never answers.
        if (calls === 1) await new Promise(() => undefined);
        handled.push(m.headers['event-id'] as string);
      }),
    );
    await b.publish([msg(topic, 'k', 1), msg(topic, 'k', 2)]);
    // The new member gets the partition once the stalled one's session (30 s) has run out; a loaded machine adds to it.
    await waitFor(() => handled.includes('k-1') && handled.includes('k-2'), 90_000, 'both messages handled');
  }, 120_000);

  it("answers a /metrics scrape's dead letters without joining a group while they have not changed", async () => {
    const topic = fresh('dlq');
    const group = fresh('g');
    // The client the bus uses, watched: every consumer it makes for a read of dead letters joins a group.
    const watched = new Kafka({ brokers, clientId: 'nudge-prod-test', logLevel: logLevel.NOTHING });
    let joins = 0;
    let counting = false;
    const makeConsumer = watched.consumer.bind(watched);
    watched.consumer = (config) => {
      if (counting && config?.groupId.startsWith('nudge.dlq-reader.')) joins += 1;
      return makeConsumer(config);
    };
    const b = bus({ maxAttempts: 1, client: watched });
    open.push(
      await b.subscribe(group, [topic], async () => {
        throw new Error('always');
      }),
    );
    await b.publish([msg(topic, 'k', 1)]);
    await waitFor(async () => (await b.deadLetters(group)).length === 1, 45_000, 'a dead letter');
    counting = true;
    const scrapes = [await b.deadLetters(group), await b.deadLetters(group), await b.deadLetters(group)];
    for (const letters of scrapes) expect(letters).toHaveLength(1);
    expect(joins, 'groups joined by three scrapes of an unchanged dead-letter topic').toBe(0);
    // A new dead letter moves the topic's offsets: the next read joins a group to read it, and sees it.
    await b.publish([msg(topic, 'k', 2)]);
    const client = await admin();
    const written = async () =>
      (await client.fetchTopicOffsets(`nudge.dlq.${group}`)).reduce((n, p) => n + Number(p.high), 0);
    await waitFor(async () => (await written()) === 2, 45_000, 'the second dead letter written');
    expect(await b.deadLetters(group)).toHaveLength(2);
    expect(joins).toBe(1);
  }, 120_000);

  it('hands a batch consumer batches, not a fetch per message, when it asks for a minimum of bytes', async () => {
    const topic = fresh('batches');
    const b = bus();
    const sizes: number[] = [];
    open.push(
      await b.subscribeBatch(fresh('g'), [topic], async (batch) => void sizes.push(batch.length), {
        maxMessages: 10_000,
        maxWaitMs: 1_000,
        minBytes: 1024 * 1024,
      }),
    );
    await sleep(2_000);
    // 300 small events over 3 s, as a service's relay publishes them.
    for (let i = 0; i < 300; i++) {
      await b.publish([msg(topic, `k${i % 12}`, i)]);
      await sleep(10);
    }
    await waitFor(() => sizes.reduce((a, n) => a + n, 0) === 300, 45_000, 'all 300 events');
    // A fetch waits up to a second for a megabyte: batches of what a second brought, not a fetch per event or two.
    expect(300 / sizes.length, `batch sizes ${sizes.join(',')}`).toBeGreaterThanOrEqual(5);
  }, 90_000);

  it('pauses a batch consumer while the engine it writes to is down: nothing is dead-lettered, all arrives after', async () => {
    const topic = fresh('outage');
    const group = fresh('g');
    const b = bus({ maxAttempts: 3 });
    let down = true;
    const stored: number[] = [];
    open.push(
      await b.subscribeBatch(group, [topic], async (batch) => {
        if (down) throw new EngineUnavailableError('ClickHouse does not answer');
        for (const m of batch) stored.push(JSON.parse(m.value).n);
      }),
    );
    await b.publish(Array.from({ length: 50 }, (_, i) => msg(topic, `k${i % 5}`, i)));
    // Longer than every attempt with its backoff: the outage outlasts what the retries would allow.
    await sleep(6_000);
    expect(stored).toEqual([]);
    down = false;
    await waitFor(() => stored.length >= 50, 45_000, 'every event after the outage');
    expect(new Set(stored).size).toBe(50);
    expect(await b.deadLetters(group)).toEqual([]);
  }, 90_000);
});
