import { internalPost } from '@nudge/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_INTERNAL_TOKEN, type ContentHarness, startContent } from './harness';

// Content's side of the reminders: today's post of each reader of a batch (the same pick the web shows that
// day), gated by role, with only the Active subject lines, and the site settings the e-mail is drawn with.

let h: ContentHarness;
let topic = '';
const posts: Record<string, string> = {};

const internal = (body: unknown, credential: string | null = CONTENT_INTERNAL_TOKEN) =>
  internalPost(h.url, '/internal/reminders/posts', body, credential);

beforeAll(async () => {
  h = await startContent();
  await h.post('/api/topic/add', { topic: 'Calm' }, h.admin.token);
  topic = (await h.get('/api/topic/getalltopics')).body.topics[0]._id;
  const add = async (heading: string, type: 0 | 1) => {
    const res = await h.post(
      '/api/template/add',
      {
        heading,
        body: `${heading} body. `.repeat(30),
        subjects: [
          { title: `${heading} active`, status: true },
          { title: `${heading} paused`, status: false },
        ],
        topic,
        status: true,
        type,
      },
      h.admin.token,
    );
    expect(res.status).toBe(200);
    posts[heading] = res.body.template._id;
  };
  await add('Premium only', 1);
});
afterAll(() => h.close());

describe('POST /internal/reminders/posts', () => {
  it('answers the day’s post per reader: locked preview for a plain reader, the body for premium; Active subjects only', async () => {
    const plain = await h.user('user');
    const paid = await h.user('premium');
    const res = await internal({
      readers: [
        { userId: plain.userId, role: 'user', localDate: '2026-11-24' },
        { userId: paid.userId, role: 'premium', localDate: '2026-11-24' },
      ],
    });
    expect(res.status).toBe(200);
    const postOf = (userId: string) => res.body.posts[res.body.picks[userId]];
    const mine = postOf(plain.userId);
    expect(mine.template).toMatchObject({ _id: posts['Premium only'], locked: true });
    expect(mine.template.body).toBeUndefined();
    expect(mine.template.preview.length).toBeLessThan('Premium only body. '.repeat(30).length / 2);
    expect(mine.subjects).toEqual([{ id: expect.any(String), title: 'Premium only active' }]);
    const theirs = postOf(paid.userId);
    expect(theirs.template.body).toContain('Premium only body.');
    expect(theirs.template.locked).toBeUndefined();
    // One entry per post and gating, each reader keyed to theirs.
    expect(Object.keys(res.body.posts).sort()).toEqual(
      [posts['Premium only'], `${posts['Premium only']}.locked`].sort(),
    );
    expect(res.body.settings).toMatchObject({ emailcheckin: true, emailrecommendation: true });
    expect(JSON.stringify(res.body)).not.toContain('@example.com');
  });

  it('is the same pick the reader gets from gettodaypost that day, with up to three same-topic recommendations', async () => {
    for (const n of [1, 2, 3, 4])
      await h.post(
        '/api/template/add',
        { heading: `Free ${n}`, body: 'Free body', subjects: [], topic, status: true, type: 0 },
        h.admin.token,
      );
    const reader = await h.user('user');
    h.setNow('2026-11-24T09:00:00.000Z');
    const web = await h.post('/api/logs/gettodaypost', {}, reader.token);
    const res = await internal({
      readers: [{ userId: reader.userId, role: 'user', localDate: '2026-11-24' }],
    });
    const got = res.body.posts[res.body.picks[reader.userId]];
    expect(got.template._id).toBe(web.body.template._id);
    expect(got.recommendations).toHaveLength(3);
    expect(got.recommendations.map((r: { _id: string }) => r._id)).not.toContain(got.template._id);
  });

  it('answers a batch of many readers as each would be answered alone: remembered picks, new picks, a paused pick replaced, each post once', async () => {
    const readers = await Promise.all(Array.from({ length: 6 }, () => h.user('user')));
    const ids = readers.map((r) => r.userId);
    h.setNow('2026-11-26T09:00:00.000Z');
    const day = '2026-11-26';
    /** Each reader's post, by id, from the batch's answer (readers share its entries). */
    const batch = async () => {
      const { posts: answered, picks } = (
        await internal({ readers: ids.map((userId) => ({ userId, role: 'user', localDate: day })) })
      ).body;
      expect(new Set(Object.values(picks))).toEqual(new Set(Object.keys(answered)));
      return Object.fromEntries(ids.map((id) => [id, answered[picks[id]]]));
    };
    // Two readers opened the web first: their remembered picks are the batch's.
    const web0 = (await h.post('/api/logs/gettodaypost', {}, readers[0]?.token)).body.template._id;
    const web1 = (await h.post('/api/logs/gettodaypost', {}, readers[1]?.token)).body.template._id;
    const first = await batch();
    expect(first[ids[0] as string].template._id).toBe(web0);
    expect(first[ids[1] as string].template._id).toBe(web1);
    for (const r of readers) {
      const got = first[r.userId];
      expect(got.template.locked).toBeUndefined();
      expect(got.template.body).toBeDefined();
      // The batch remembered the others' picks: the web answers the same post.
      const web = await h.post('/api/logs/gettodaypost', {}, r.token);
      expect(web.body.template._id).toBe(got.template._id);
    }
    expect(await batch()).toEqual(first);
    // Reader 0's post is paused: the next batch replaces it, and the web agrees.
    await h.post(`/api/template/update/${web0}`, { info: { status: false } }, h.admin.token);
    const after = await batch();
    const replaced = after[ids[0] as string].template._id;
    expect(replaced).not.toBe(web0);
    expect((await h.post('/api/logs/gettodaypost', {}, readers[0]?.token)).body.template._id).toBe(replaced);
    await h.post(`/api/template/update/${web0}`, { info: { status: true } }, h.admin.token);
  });

  it('refuses calls without the credential and bad batches', async () => {
    const reader = await h.user('user');
    const body = { readers: [{ userId: reader.userId, role: 'user', localDate: '2026-11-24' }] };
    expect((await internal(body, null)).status).toBe(403);
    expect((await internal(body, 'x'.repeat(40))).status).toBe(403);
    const bad = await internal({
      readers: [{ userId: reader.userId, role: 'user', localDate: '24/11/2026' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ status: false, message: expect.any(String) });
    expect((await internal({ readers: [] })).status).toBe(400);
  });
});
