import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedStore, type Filter, type FindOptions } from '@nudge/platform';
import { describe, expect, it } from 'vitest';
import { contentCollections, ensureContentIndexes, likeStateId } from '../src/events/collections';

type Explain = (filter: Filter, options?: FindOptions) => string[];

describe("content's like states on the embedded store", () => {
  it('keeps no secondary index on the like states (a like writes no index); the feed reads them by _id', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nudge-feed-ix-'));
    try {
      const store = createEmbeddedStore({ dir });
      const c = contentCollections(store);
      await ensureContentIndexes(c);
      await c.likes.insertOne({
        _id: likeStateId('u1', 't7'),
        userId: 'u1',
        templateId: 't7',
        liked: true,
        at: '1',
        stream: 'x',
        version: 1,
      });
      const explain = (c.likes as unknown as { explain: Explain }).explain.bind(c.likes);
      // No index is left to search by reader or by post: SQLite scans.
      for (const filter of [
        { userId: 'u1', templateId: { $in: ['t1', 't7'] } },
        { templateId: 't7', liked: true },
      ])
        expect(explain(filter).join(), JSON.stringify(filter)).toMatch(/^SCAN /);
      // The feed's read (post-views): the primary key.
      const ids = [likeStateId('u1', 't1'), likeStateId('u1', 't7')];
      expect(explain({ _id: { $in: ids } }).join()).toMatch(
        /^SEARCH doc:like_states USING INDEX sqlite_autoindex/,
      );
      expect((await c.likes.find({ _id: { $in: ids } })).map((l) => l.templateId)).toEqual(['t7']);
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
