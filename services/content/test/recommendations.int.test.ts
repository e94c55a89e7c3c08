import { ContentEvents } from '@nudge/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPost, addTopic, type ContentHarness, startContent } from './harness';

describe('recommendations and the post (POST /api/template/recommendations/:id, /api/template/:id)', () => {
  let h: ContentHarness;
  let current: any;
  const same: string[] = [];
  const others: string[] = [];
  let pausedSame: string;

  beforeAll(async () => {
    h = await startContent();
    const topic = await addTopic(h, 'Main');
    const other = await addTopic(h, 'Other');
    // Interleaved so that "same topic first" is not simply "newest first".
    for (let i = 0; i < 6; i++) {
      others.push((await addPost(h, { topic: other, heading: `O${i}` }))._id);
      same.push((await addPost(h, { topic, heading: `S${i}` }))._id);
    }
    current = await addPost(h, { topic, heading: 'Current' });
    pausedSame = (await addPost(h, { topic, heading: 'Paused', status: false }))._id;
  });
  afterAll(() => h.close());

  const recs = (page: number, limit = 5, id = current._id) =>
    h.post(`/api/template/recommendations/${id}?page=${page}&limit=${limit}`, {});

  it('lists the same topic first (newest first), then the others, without the post itself or paused posts', async () => {
    const ids: string[] = [];
    const more: boolean[] = [];
    for (let page = 1; page <= 3; page++) {
      const reply = await recs(page);
      expect(reply.status).toBe(200);
      expect(reply.body.status).toBe(true);
      ids.push(...reply.body.templates.map((t: any) => t._id));
      more.push(reply.body.hasMore);
    }
    expect(ids).toEqual([...same.slice().reverse(), ...others.slice().reverse()]);
    expect(more).toEqual([true, true, false]);
    expect(ids).not.toContain(current._id);
    expect(ids).not.toContain(pausedSame);
    expect((await recs(4)).body).toEqual({ status: true, templates: [], hasMore: false });
  });

  it('pages by 5 by default', async () => {
    const reply = await h.post(`/api/template/recommendations/${current._id}`, {});
    expect(reply.body.templates).toHaveLength(5);
    expect(reply.body.hasMore).toBe(true);
  });

  it('answers 404 for an unknown post', async () => {
    const reply = await recs(1, 5, 'eeeeeeeeeeeeeeeeeeeeeeee');
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ status: false, message: 'Post not found' });
  });

  it('answers one post with its counters; unknown, malformed and paused ids are 404 Post not found', async () => {
    const reply = await h.post(`/api/template/${current._id}`, {});
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      status: true,
      template: {
        _id: current._id,
        heading: 'Current',
        body: current.body,
        image: '',
        type: 0,
        topic: current.topic,
        createdAt: current.createdAt,
        totallikes: 0,
        totalcomments: 0,
        like: false,
      },
    });
    for (const id of ['eeeeeeeeeeeeeeeeeeeeeeee', 'garbage', pausedSame]) {
      const missing = await h.post(`/api/template/${id}`, {});
      expect(missing.status, id).toBe(404);
      expect(missing.body).toEqual({ status: false, message: 'Post not found' });
    }
    const reader = await h.user('premium');
    expect((await h.post(`/api/template/${pausedSame}`, {}, reader.token)).status).toBe(404);
  });

  it('lets admins read a paused post', async () => {
    const reply = await h.post(`/api/template/${pausedSame}`, {}, h.admin.token);
    expect(reply.status).toBe(200);
    expect(reply.body.template.heading).toBe('Paused');
  });

  it('records a type 1 read for a signed-in reader who gets the body, and none for anonymous or locked', async () => {
    const fresh = await startContent();
    try {
      const topic = await addTopic(fresh, 'T');
      const free = await addPost(fresh, { topic });
      const premium = await addPost(fresh, { topic, type: 1 });
      const reader = await fresh.user('user');
      await fresh.post(`/api/template/${free._id}`, {});
      await fresh.post(`/api/template/${premium._id}`, {}, reader.token);
      await fresh.post(`/api/template/${free._id}`, {}, reader.token);
      const reads: any[] = [];
      for await (const e of fresh.events.readAll())
        if (e.type === ContentEvents.PostOpened.type) reads.push(e);
      expect(reads.map((e) => e.data)).toEqual([
        { userId: reader.userId, templateId: free._id, type: 1, openedAt: expect.any(String) },
      ]);
    } finally {
      await fresh.close();
    }
  });
});
