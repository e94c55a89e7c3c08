/**
 * The embedded store's group commit, as embeddedCommitStats counts it: the writes of one event-loop turn share one
 * COMMIT, a write awaited after another is a commit of its own, and the counts start afresh after each reading.
 */
import { describe, expect, it } from 'vitest';
import { createEmbeddedStore, embeddedCommitStats } from './embedded';

describe('embedded store commits', () => {
  it('commits the writes of one turn together, and counts each commit once', async () => {
    const store = createEmbeddedStore({});
    const c = store.collection<{ _id: string; n: number }>('commits_check');
    embeddedCommitStats();
    await Promise.all(Array.from({ length: 50 }, (_, i) => c.insertOne({ _id: `d${i}`, n: i })));
    const together = embeddedCommitStats();
    expect(together.commits).toBe(1);
    expect(together.totalMs).toBeGreaterThanOrEqual(together.maxMs);
    for (let i = 0; i < 3; i++) await c.updateOne({ _id: 'd1' }, { $inc: { n: 1 } });
    expect(embeddedCommitStats().commits).toBe(3);
    // A read outside a transaction commits nothing, and nothing is counted twice.
    expect(await c.findOne({ _id: 'd1' })).toEqual({ _id: 'd1', n: 4 });
    expect(embeddedCommitStats()).toEqual({
      commits: 0,
      totalMs: 0,
      over2ms: 0,
      over2msTotalMs: 0,
      over5ms: 0,
      maxMs: 0,
    });
    await store.close();
  });
});
