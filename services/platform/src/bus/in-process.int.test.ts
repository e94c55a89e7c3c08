import { describe, expect, it } from 'vitest';
import { silentLog, waitFor } from '../events/testing';
import type { BusMessage } from '../events/types';
import { createEmbeddedStore } from '../store';
import { BUS_META, createInProcessBus } from './in-process';

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
