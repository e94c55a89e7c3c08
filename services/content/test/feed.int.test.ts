import { EngagementEvents } from '@nudge/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPost, addTopic, type ContentHarness, envelope, startContent } from './harness';

describe('the feed (POST /api/logs/getallpost)', () => {
  let h: ContentHarness;
  let sleep: string;
  let food: string;
  let empty: string;
  /** Active post ids, oldest first. */
  const active: string[] = [];
  const sleepIds: string[] = [];
  let paused: string;

  beforeAll(async () => {
    h = await startContent();
    sleep = await addTopic(h, 'Sleep');
    food = await addTopic(h, 'Food');
    empty = await addTopic(h, 'Empty');
    for (let i = 0; i < 12; i++) {
      const topic = i % 3 === 0 ? food : sleep;
      const post = await addPost(h, { topic, heading: `Post ${i}` });
      active.push(post._id);
      if (topic === sleep) sleepIds.push(post._id);
    }
    paused = (await addPost(h, { topic: sleep, heading: 'Paused', status: false }))._id;
  });
  afterAll(() => h.close());

  const page = (n: number, query = '') =>
    h.post(`/api/logs/getallpost?page=${n}&limit=5${query}`, { subscription: false });

  it('pages active posts by 5, newest first, until a page comes back empty', async () => {
    const seen: string[] = [];
    for (let n = 1; n <= 4; n++) {
      const reply = await page(n);
      expect(reply.status).toBe(200);
      expect(reply.body.status).toBe(true);
      expect(reply.body.templates.length).toBe([5, 5, 2, 0][n - 1]);
      seen.push(...reply.body.templates.map((t: any) => t._id));
    }
    expect(seen).toEqual(active.slice().reverse());
    expect(seen).not.toContain(paused);
  });

  it('uses 5 as the default page size and refuses sizes over 50', async () => {
    expect((await h.post('/api/logs/getallpost', {})).body.templates).toHaveLength(5);
    const reply = await h.post('/api/logs/getallpost?limit=51', {});
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe('limit must be at most 50');
  });

  it('counts active posts per topic and in total, whatever the filter', async () => {
    for (const query of ['', `&topicId=${food}`, `&topicId=${empty}`]) {
      const reply = await page(1, query);
      expect(reply.body.totalPostsCount).toBe(12);
      expect(reply.body.topicCounts).toEqual(
        expect.arrayContaining([
          { _id: sleep, count: 8 },
          { _id: food, count: 4 },
        ]),
      );
      expect(reply.body.topicCounts).toHaveLength(2);
    }
  });

  it('filters by topic', async () => {
    const first = await page(1, `&topicId=${sleep}`);
    const second = await page(2, `&topicId=${sleep}`);
    expect([...first.body.templates, ...second.body.templates].map((t: any) => t._id)).toEqual(
      sleepIds.slice().reverse(),
    );
    expect((await page(1, `&topicId=${empty}`)).body.templates).toEqual([]);
    expect((await page(1, '&topicId=')).body.templates).toHaveLength(5);
    expect((await page(1, '&topicId=nope')).status).toBe(400);
  });

  it('follows pausing, resuming and moving a post between topics in the counts', async () => {
    const fresh = await startContent();
    try {
      const a = await addTopic(fresh, 'A');
      const b = await addTopic(fresh, 'B');
      const post = await addPost(fresh, { topic: a });
      const counts = async () => (await fresh.post('/api/logs/getallpost', {})).body;
      expect((await counts()).topicCounts).toEqual([{ _id: a, count: 1 }]);
      await fresh.post(`/api/template/update/${post._id}`, { info: { topic: b } }, fresh.admin.token);
      expect((await counts()).topicCounts).toEqual([{ _id: b, count: 1 }]);
      await fresh.post(`/api/template/update/${post._id}`, { info: { status: false } }, fresh.admin.token);
      expect(await counts()).toMatchObject({ topicCounts: [], totalPostsCount: 0, templates: [] });
      await fresh.post(`/api/template/update/${post._id}`, { info: { status: true } }, fresh.admin.token);
      expect(await counts()).toMatchObject({ topicCounts: [{ _id: b, count: 1 }], totalPostsCount: 1 });
    } finally {
      await fresh.close();
    }
  });

  it('gives each post its counters, createdAt and the reader’s like (false when signed out)', async () => {
    const reader = await h.user('user');
    const other = await h.user('user');
    const target = active.at(-1)!;
    const like = (userId: string, liked: boolean, version: number) =>
      h.deliver(
        envelope(EngagementEvents.LikeSet.type, `like-${userId}-${target}`, version, {
          userId,
          templateId: target,
          liked,
        }),
      );
    await like(reader.userId, true, 1);
    await like(other.userId, true, 1);
    await h.deliver(
      envelope(EngagementEvents.CommentAdded.type, 'comment-c1', 1, {
        commentId: 'c1',
        templateId: target,
        userId: other.userId,
        message: 'Nice',
      }),
    );
    const signedIn = (await h.post('/api/logs/getallpost?page=1', {}, reader.token)).body.templates[0];
    expect(signedIn).toMatchObject({
      _id: target,
      totallikes: 2,
      totalcomments: 1,
      like: true,
      createdAt: expect.any(String),
      type: 0,
      topic: expect.any(String),
      heading: 'Post 11',
      body: expect.any(String),
    });
    const anonymous = (await h.post('/api/logs/getallpost?page=1', {})).body.templates[0];
    expect(anonymous).toMatchObject({ totallikes: 2, totalcomments: 1, like: false });
    expect((await h.post('/api/logs/getallpost?page=1', {}, h.admin.token)).body.templates[0].like).toBe(
      false,
    );
    expect((await h.post('/api/logs/getallpost?page=1', {}, h.admin.token)).body.templates[1]).toMatchObject({
      totallikes: 0,
      totalcomments: 0,
      like: false,
    });
  });

  it('never shows readers the admin-only fields', async () => {
    const reply = await page(1);
    for (const t of reply.body.templates) {
      expect(Object.keys(t).sort()).toEqual(
        [
          '_id',
          'body',
          'createdAt',
          'heading',
          'image',
          'like',
          'topic',
          'totalcomments',
          'totallikes',
          'type',
        ].sort(),
      );
    }
  });
  // Runs last: it adds and pauses a post. Pages are served from the feed order read last, until it changes.
  it('shows a new post, a paused one and a reader’s like or unlike on the very next page read', async () => {
    const reader = await h.user('user');
    const first = async (token?: string) =>
      (await h.post('/api/logs/getallpost?page=1&limit=5', {}, token)).body as {
        templates: { _id: string; like: boolean; totallikes: number; heading: string }[];
        totalPostsCount: number;
      };
    const before = await first(reader.token);
    expect(before.templates[0]?._id).toBe(active.at(-1));

    const added = await addPost(h, { topic: sleep, heading: 'Just added' });
    const after = await first(reader.token);
    expect(after.templates[0]?._id).toBe(added._id);
    expect(after.totalPostsCount).toBe(before.totalPostsCount + 1);

    let version = 0;
    const like = async (liked: boolean) => {
      version += 1;
      await h.deliver(
        envelope(EngagementEvents.LikeSet.type, `like-${reader.userId}-${added._id}`, version, {
          userId: reader.userId,
          templateId: added._id,
          liked,
        }),
      );
      return (await first(reader.token)).templates[0];
    };
    expect(await like(true)).toMatchObject({ _id: added._id, like: true, totallikes: 1 });
    expect((await first()).templates[0]).toMatchObject({ _id: added._id, like: false, totallikes: 1 });
    expect(await like(false)).toMatchObject({ _id: added._id, like: false, totallikes: 0 });
    expect(await like(true)).toMatchObject({ _id: added._id, like: true, totallikes: 1 });

    const paused = await h.post(
      `/api/template/update/${added._id}`,
      { info: { status: false } },
      h.admin.token,
    );
    expect(paused.status).toBe(200);
    const gone = await first(reader.token);
    expect(gone.templates.map((t) => t._id)).toEqual(before.templates.map((t) => t._id));
    expect(gone.totalPostsCount).toBe(before.totalPostsCount);
  });
});
