import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { silentLog, waitFor } from '../events/testing';
import type { BusMessage } from '../events/types';
import { createEmbeddedStore } from '../store';
import type { DocumentStore } from '../store/types';
import { BUS_LOG, BUS_META, BUS_OFFSETS, createInProcessBus, RECENT_KEPT } from './in-process';

// The in-process bus reads a consumer's next page by keys up to the topic's counter: a gap that a failed publish
// left (offsets counted, messages never inserted) must not stop the consumer, and a long log of another topic
// must not matter.

const message = (topic: string, key: string): BusMessage => ({ topic, key, value: key, headers: {} });

describe('in-process bus paging', () => {
  it('delivers past a gap of counted offsets whose messages were never inserted, in order', async () => {
    const store = createEmbeddedStore({});
    const bus = createInProcessBus({ store, pollMs: 20, log: silentLog() });
    await bus.publish([message('t', 'a'), message('t', 'b')]);
    // A publish that counted 150 offsets (more than a page) and failed before inserting them.
    await store
      .collection<{ _id: string; value: number }>(BUS_META)
      .updateOne({ _id: 'offset:t' }, { $inc: { value: 150 } });
    await bus.publish([message('t', 'c')]);
    for (let i = 0; i < 300; i++) await bus.publish([message('other', `o${i}`)]);
    const got: string[] = [];
    await bus.subscribe('g', ['t'], async (m) => {
      got.push(m.key);
    });
    await waitFor(() => got.length === 3);
    expect(got).toEqual(['a', 'b', 'c']);
    await bus.publish([message('t', 'd'), message('t', 'e')]);
    await waitFor(() => got.length === 5);
    expect(got).toEqual(['a', 'b', 'c', 'd', 'e']);
    await bus.close();
    await store.close();
  });
});

// Publishes are serialised per store: offsets are distinct and in each instance's call order; a consumer reads up to
// the head this process's publishes committed; a failed publish leaves a gap that is skipped, never a repeated offset.
describe('in-process bus publish', () => {
  /** A row of two messages at offsets first and first + 1 (keys and values alike), as a publish of this version writes. */
  const insertRowOfTwo = (store: DocumentStore, first: number, keys: [string, string]) =>
    store.collection<Record<string, unknown> & { _id: string }>(BUS_LOG).insertOne({
      _id: `t:${first}`,
      topic: 't',
      offset: first + 1,
      first,
      messages: keys.map((key) => [key, key, '{}']),
      publishedAt: new Date().toISOString(),
    });
  /** The offsets of the messages in the log (a row holds the offsets `first`..`offset`, or `offset` alone). */
  const offsetsOf = async (store: DocumentStore, topic: string) =>
    (
      await store
        .collection<{ _id: string; topic: string; offset: number; first: number }>(BUS_LOG)
        .find({ topic }, { sort: { offset: 1 } })
    ).flatMap((row) => Array.from({ length: row.offset - row.first + 1 }, (_, i) => row.first + i));
  const counterOf = async (store: DocumentStore, topic: string) =>
    (await store.collection<{ _id: string; value: number }>(BUS_META).findOne({ _id: `offset:${topic}` }))
      ?.value;

  it("reads the page up to the head its own publishes committed, the topic's counter once per poll interval", async () => {
    const store = createEmbeddedStore({});
    const counterReads = vi.spyOn(store.collection(BUS_META), 'findOne');
    const bus = createInProcessBus({ store, pollMs: 60_000, log: silentLog() });
    await bus.publish([message('t', 'a')]);
    const got: string[] = [];
    await bus.subscribe('g', ['t'], async (m) => void got.push(m.key));
    for (const key of ['b', 'c', 'd', 'e']) {
      await bus.publish([message('t', key)]);
      await waitFor(() => got.includes(key));
    }
    expect(got).toEqual(['a', 'b', 'c', 'd', 'e']);
    // Once, for the subscription's first page; none for the pages that followed.
    expect(counterReads).toHaveBeenCalledTimes(1);
    await bus.close();
    await store.close();
  });

  it('groups that keep up get their pages from the publishes of this process, without reading the log', async () => {
    const store = createEmbeddedStore({});
    const logReads = vi.spyOn(store.collection(BUS_LOG), 'find');
    const bus = createInProcessBus({ store, pollMs: 60_000, log: silentLog() });
    const got = { g1: [] as string[], g2: [] as string[] };
    const keys = Array.from({ length: 250 }, (_, i) => `k${i}`);
    // Published before the groups start (a group's first read of the counter could otherwise see offsets whose
    // messages are still being inserted, and look for them in the log).
    await bus.publish(keys.slice(0, 50).map((key) => message('t', key)));
    await bus.subscribe('g1', ['t'], async (m) => void got.g1.push(m.key));
    await bus.subscribe('g2', ['t'], async (m) => void got.g2.push(m.key));
    for (let i = 50; i <= keys.length; i += 50) {
      await waitFor(() => got.g1.length === i && got.g2.length === i);
      await bus.publish(keys.slice(i, i + 50).map((key) => message('t', key)));
    }
    expect(got.g1).toEqual(keys);
    expect(got.g2).toEqual(keys);
    expect(logReads).not.toHaveBeenCalled();
    // A group that starts behind what is kept in memory reads the log (in order, from its position).
    const more = Array.from({ length: RECENT_KEPT }, (_, i) => `m${i}`);
    await bus.publish(more.map((key) => message('t', key)));
    const late: string[] = [];
    await bus.subscribe('g3', ['t'], async (m) => void late.push(m.key));
    await waitFor(() => late.length === keys.length + more.length);
    expect(late).toEqual([...keys, ...more]);
    expect(logReads).toHaveBeenCalled();
    await bus.close();
    await store.close();
  });

  it('still finds, within a poll interval, what another store object on the same folder published', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nudge-bus-heads-'));
    const mine = createEmbeddedStore({ dir });
    const other = createEmbeddedStore({ dir });
    const bus = createInProcessBus({ store: mine, pollMs: 50, log: silentLog() });
    const elsewhere = createInProcessBus({ store: other, pollMs: 50, log: silentLog() });
    try {
      await bus.publish([message('t', 'a')]);
      const got: string[] = [];
      await bus.subscribe('g', ['t'], async (m) => void got.push(m.key));
      await waitFor(() => got.length === 1);
      // No wake-up reaches this process's consumer, and its own head still says 1: the counter read finds 2.
      await elsewhere.publish([message('t', 'b')]);
      await waitFor(() => got.length === 2, 2_000);
      expect(got).toEqual(['a', 'b']);
    } finally {
      await bus.close();
      await elsewhere.close();
      await mine.close();
      await other.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("gives concurrent publishes of two bus instances distinct offsets, each instance's in its call order", async () => {
    const store = createEmbeddedStore({});
    const one = createInProcessBus({ store, pollMs: 20, log: silentLog() });
    const two = createInProcessBus({ store, pollMs: 20, log: silentLog() });
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 ? one : two).publish([{ ...message('t', 'k'), value: `v${i}` }]),
      ),
    );
    expect(await offsetsOf(store, 't')).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(await counterOf(store, 't')).toBe(60);
    const got: string[] = [];
    await one.subscribe('g', ['t'], async (m) => void got.push(m.value));
    await waitFor(() => got.length === 60);
    // Each instance's publishes in its call order (the order across instances is not defined), each once.
    const ofInstance = (odd: number) => got.filter((v) => Number(v.slice(1)) % 2 === odd);
    expect(ofInstance(1)).toEqual(Array.from({ length: 30 }, (_, i) => `v${2 * i + 1}`));
    expect(ofInstance(0)).toEqual(Array.from({ length: 30 }, (_, i) => `v${2 * i}`));
    await one.close();
    await two.close();
    await store.close();
  });

  it('after a failed publish no offset is used twice, and the consumer skips the gap', async () => {
    const store = createEmbeddedStore({});
    const bus = createInProcessBus({ store, pollMs: 20, log: silentLog() });
    await bus.publish([message('t', 'a'), message('t', 'b')]);
    // A message already at offset 4 (as another writer would have left it): the publish counting 3-4 fails.
    await store.collection<Record<string, unknown> & { _id: string }>(BUS_LOG).insertOne({
      _id: 't:4',
      topic: 't',
      offset: 4,
      first: 4,
      messages: [['x', 'x', '{}']],
      publishedAt: new Date().toISOString(),
    });
    await expect(bus.publish([message('t', 'c'), message('t', 'd')])).rejects.toThrow(/duplicate key/);
    await bus.publish([message('t', 'e')]);
    // The refused publish inserted none of its messages (one row per publish): offset 3 is a gap, 4 is x's.
    expect(await offsetsOf(store, 't')).toEqual([1, 2, 4, 5]);
    expect(await counterOf(store, 't')).toBe(5);
    const got: string[] = [];
    await bus.subscribe('g', ['t'], async (m) => void got.push(m.key));
    await waitFor(() => got.includes('e'));
    expect(got).toEqual(['a', 'b', 'x', 'e']);
    // A publish overlapping a row of several messages is refused too (the row at 6-7 holds 7; the counter says 5).
    await insertRowOfTwo(store, 6, ['y', 'z']);
    await expect(bus.publish([message('t', 'f')])).rejects.toThrow(/duplicate key/);
    await expect(bus.publish([message('t', 'g')])).rejects.toThrow(/duplicate key/);
    await bus.publish([message('t', 'h'), message('t', 'i')]);
    await waitFor(() => got.includes('i'));
    expect(got).toEqual(['a', 'b', 'x', 'e', 'y', 'z', 'h', 'i']);
    // A row further ahead that holds none of the publish's offsets (at 20-21; the publish takes 10) does not refuse it.
    await insertRowOfTwo(store, 20, ['p', 'q']);
    await bus.publish([message('t', 'j')]);
    await waitFor(() => got.includes('j'));
    expect(got.slice(0, 9)).toEqual(['a', 'b', 'x', 'e', 'y', 'z', 'h', 'i', 'j']);
    expect(await offsetsOf(store, 't')).toEqual([1, 2, 4, 5, 6, 7, 8, 9, 10, 20, 21]);
    await bus.close();
    await store.close();
  });
});

// Per-message subscriptions deliver a page by key: one lane per key (in offset order), different keys at the same
// time; the committed offset never passes a message whose handler has not resolved.
describe('in-process bus lanes', () => {
  const gate = () => {
    let open: () => void = () => undefined;
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    return { opened, open };
  };
  const positionOf = async (store: DocumentStore, id: string) =>
    (await store.collection<{ _id: string; offset: number }>(BUS_OFFSETS).findOne({ _id: id }))?.offset ?? 0;

  it("runs other keys while one key's first handler is slow, keeps each key's order, and commits only the delivered prefix", async () => {
    const store = createEmbeddedStore({});
    const bus = createInProcessBus({ store, pollMs: 20, retryBaseMs: 20, log: silentLog() });
    // Offsets 1..5: A, B, A, C, D. A's first is held; D fails once, so its backoff commits the delivered prefix.
    await bus.publish(['A', 'B', 'A', 'C', 'D'].map((key) => message('t', key)));
    const slow = gate();
    const events: string[] = [];
    const positions: number[] = [];
    let dFailures = 0;
    const seen = new Map<string, number>();
    await bus.subscribe('g', ['t'], async (m) => {
      const n = (seen.get(m.key) ?? 0) + 1;
      seen.set(m.key, n);
      const name = `${m.key}${n}`;
      events.push(`start ${name}`);
      if (name === 'A1') await slow.opened;
      if (m.key === 'D' && dFailures === 0) {
        dFailures += 1;
        throw new Error('D fails once (expected by the test)');
      }
      positions.push(await positionOf(store, 'g:t'));
      events.push(`end ${name}`);
    });
    await waitFor(() => events.includes('end B1') && events.includes('end C1') && events.includes('end D2'));
    // D's backoff committed what was delivered: nothing, since A1 (offset 1) is still in its handler.
    expect(await positionOf(store, 'g:t')).toBe(0);
    expect(events).not.toContain('end A1');
    expect(events).not.toContain('start A2');
    slow.open();
    await waitFor(() => events.includes('end A2'));
    await waitFor(async () => (await positionOf(store, 'g:t')) === 5);
    expect(events.indexOf('start A2')).toBeGreaterThan(events.indexOf('end A1'));
    expect(events.indexOf('end B1')).toBeLessThan(events.indexOf('end A1'));
    expect(events.indexOf('end C1')).toBeLessThan(events.indexOf('end A1'));
    expect(Math.max(...positions)).toBe(0);
    await bus.close();
    await store.close();
  });

  it('a stop in the middle of a page commits the delivered prefix; the restarted group gets the rest, each key in order', async () => {
    const store = createEmbeddedStore({});
    let bus = createInProcessBus({ store, pollMs: 20, log: silentLog() });
    await bus.publish(
      ['A', 'B', 'A', 'C'].map((key, i) => ({ ...message('t', key), value: `${key}@${i + 1}` })),
    );
    const slow = gate();
    const ended: string[] = [];
    const subscription = await bus.subscribe('g', ['t'], async (m) => {
      if (m.value === 'A@1') await slow.opened;
      ended.push(m.value);
    });
    await waitFor(() => ended.includes('B@2') && ended.includes('C@4'));
    // Stopping waits for the handler in flight (A@1); A@3 is not taken. B@2 is delivered, C@4 is past A@3.
    const closing = subscription.close();
    slow.open();
    await closing;
    expect(ended).toEqual(['B@2', 'C@4', 'A@1']);
    expect(await positionOf(store, 'g:t')).toBe(2);
    await bus.close();

    bus = createInProcessBus({ store, pollMs: 20, log: silentLog() });
    const again: string[] = [];
    await bus.subscribe('g', ['t'], async (m) => void again.push(m.value));
    await waitFor(() => again.length === 2);
    expect(again).toEqual(['A@3', 'C@4']);
    await waitFor(async () => (await positionOf(store, 'g:t')) === 4);
    await bus.close();
    await store.close();
  });

  it('with lanes: 1 a page goes one message at a time', async () => {
    const store = createEmbeddedStore({});
    const bus = createInProcessBus({ store, pollMs: 20, lanes: 1, log: silentLog() });
    await bus.publish(['A', 'B', 'C'].map((key) => message('t', key)));
    let inFlight = 0;
    let most = 0;
    const got: string[] = [];
    await bus.subscribe('g', ['t'], async (m) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight -= 1;
      got.push(m.key);
    });
    await waitFor(() => got.length === 3);
    expect(got).toEqual(['A', 'B', 'C']);
    expect(most).toBe(1);
    await bus.close();
    await store.close();
  });
});
