import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedStore, type Filter, type FindOptions } from '@nudge/platform';
import { describe, expect, it } from 'vitest';
import { contentCollections, ensureContentIndexes } from '../src/events/collections';

type Explain = (filter: Filter, options?: FindOptions) => string[];

describe("the feed's reads on the embedded store", () => {
  it("find a reader's likes of a page's posts by {userId, templateId}, not by walking all the reader's likes", async () => {
    const c = contentCollections(createEmbeddedStore());
    await ensureContentIndexes(c);
    // 50 readers who each liked 40 posts of 1,000 (a third of them liked and then unliked).
    for (let u = 0; u < 50; u++)
      for (let k = 0; k < 40; k++) {
        const templateId = `t${(u * 7 + k * 13) % 1000}`;
        await c.likes.insertOne({
          _id: `u${u}:${templateId}`,
          userId: `u${u}`,
          templateId,
          liked: k % 3 !== 0,
          at: '1',
          stream: 'x',
          version: 1,
        });
      }
    const explain = (c.likes as unknown as { explain: Explain }).explain.bind(c.likes);
    const page = ['t1', 't7', 't20', 't33', 't46'];
    // The feed page of one reader (post-views' readerPostsOf): a lookup per post of the page.
    expect(explain({ userId: 'u1', templateId: { $in: page }, liked: true }).join()).toMatch(
      /^SEARCH doc:like_states USING INDEX ix:like_states:userId,templateId \(<expr>=\? AND <expr>=\?\)/,
    );
    // The reminder batch's several readers: an index search too (SQLite picks either index), never a scan.
    expect(explain({ userId: { $in: ['u1', 'u2'] }, templateId: { $in: page }, liked: true }).join()).toMatch(
      /^SEARCH doc:like_states USING INDEX /,
    );
    // A post's recount still reads its own index.
    expect(explain({ templateId: 't7', liked: true }).join()).toMatch(
      /USING (COVERING )?INDEX ix:like_states:templateId,liked/,
    );
    // And the answer is the reader's likes of that page.
    const liked = await c.likes.find({
      userId: 'u1',
      templateId: { $in: ['t7', 't20', 't33', 't46'] },
      liked: true,
    });
    expect(liked.map((l) => l.templateId).sort()).toEqual(['t20', 't33']);
  });

  it('drops the old {userId} index of a data directory from before, so the feed read takes the new one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nudge-feed-ix-'));
    try {
      const before = createEmbeddedStore({ dir });
      await contentCollections(before).likes.createIndex({ userId: 1 });
      await before.close();
      const store = createEmbeddedStore({ dir });
      const c = contentCollections(store);
      await ensureContentIndexes(c);
      const explain = (c.likes as unknown as { explain: Explain }).explain.bind(c.likes);
      expect(explain({ userId: 'u1', templateId: { $in: ['t1', 't2'] }, liked: true }).join()).toMatch(
        /USING INDEX ix:like_states:userId,templateId/,
      );
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
