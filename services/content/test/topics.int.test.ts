import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTopic, type ContentHarness, startContent } from './harness';

describe('topics', () => {
  let h: ContentHarness;
  beforeAll(async () => {
    h = await startContent();
  });
  afterAll(() => h.close());

  it('lists no topics at first, then every added topic in the order added', async () => {
    expect((await h.get('/api/topic/getalltopics')).body).toEqual({ status: true, topics: [] });
    const sleep = await addTopic(h, 'Sleep');
    const food = await addTopic(h, '  Food   and drink ');
    const reply = await h.get('/api/topic/getalltopics');
    expect(reply.status).toBe(200);
    expect(reply.body.topics).toEqual([
      { _id: sleep, topic: 'Sleep', default: false, createdAt: expect.any(String) },
      { _id: food, topic: 'Food and drink', default: false, createdAt: expect.any(String) },
    ]);
  });

  it('answers the added topic with the spec’s success message', async () => {
    const reply = await h.post('/api/topic/add', { topic: 'Movement' }, h.admin.token);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      status: true,
      message: 'New Topic Added Successfully',
      topic: { topic: 'Movement', default: false },
    });
  });

  it.each([[''], ['   '], [undefined], [42]])('refuses a blank name (%s)', async (topic) => {
    const before = (await h.get('/api/topic/getalltopics')).body.topics.length;
    const reply = await h.post('/api/topic/add', { topic }, h.admin.token);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ status: false, message: 'Please enter valid topic name' });
    expect((await h.get('/api/topic/getalltopics')).body.topics).toHaveLength(before);
  });

  it('refuses a name longer than 100 characters', async () => {
    const reply = await h.post('/api/topic/add', { topic: 'x'.repeat(101) }, h.admin.token);
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe('Topic name must be 100 characters or less');
  });

  it('refuses a duplicate name, whatever its case and spacing, with 409', async () => {
    const reply = await h.post('/api/topic/add', { topic: '  sLEEP ' }, h.admin.token);
    expect(reply.status).toBe(409);
    expect(reply.body).toEqual({ status: false, message: "A topic named 'sLEEP' already exists" });
    const names = (await h.get('/api/topic/getalltopics')).body.topics.map((t: any) => t.topic);
    expect(names.filter((n: string) => n.toLowerCase() === 'sleep')).toHaveLength(1);
  });

  it('keeps at most one default topic: a new default clears the old one', async () => {
    const first = await addTopic(h, 'Mindfulness', true);
    let topics = (await h.get('/api/topic/getalltopics')).body.topics;
    expect(topics.filter((t: any) => t.default).map((t: any) => t._id)).toEqual([first]);
    const second = await addTopic(h, 'Breathing', true);
    topics = (await h.get('/api/topic/getalltopics')).body.topics;
    expect(topics.filter((t: any) => t.default).map((t: any) => t._id)).toEqual([second]);
    await addTopic(h, 'Not default');
    topics = (await h.get('/api/topic/getalltopics')).body.topics;
    expect(topics.filter((t: any) => t.default).map((t: any) => t._id)).toEqual([second]);
  });

  it('lets only admins add topics (checked on the server)', async () => {
    const reader = await h.user('user');
    const premium = await h.user('premium');
    expect((await h.post('/api/topic/add', { topic: 'Anon' })).status).toBe(401);
    expect((await h.post('/api/topic/add', { topic: 'Reader' }, reader.token)).status).toBe(403);
    expect((await h.post('/api/topic/add', { topic: 'Premium' }, premium.token)).status).toBe(403);
    const names = (await h.get('/api/topic/getalltopics')).body.topics.map((t: any) => t.topic);
    expect(names).not.toEqual(expect.arrayContaining(['Anon']));
    expect(names).not.toContain('Reader');
    expect(names).not.toContain('Premium');
  });

  it('accepts the token in the body as the contract sends it', async () => {
    const reply = await h.post('/api/topic/add', { topic: 'Body token', token: h.admin.token });
    expect(reply.status).toBe(200);
  });
});
