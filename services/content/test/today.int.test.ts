import { AuthEvents, ContentEvents } from '@nudge/contracts';
import { internalPost } from '@nudge/platform/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { TodayPickDoc } from '../src/events/collections';
import {
  addPost,
  addTopic,
  CONTENT_INTERNAL_TOKEN,
  type ContentHarness,
  envelope,
  startContent,
} from './harness';

describe("today's post (POST /api/logs/gettodaypost)", () => {
  let h: ContentHarness;
  afterEach(() => h?.close());

  const today = (token: string, body: Record<string, unknown> = {}) =>
    h.post('/api/logs/gettodaypost', { token, ...body });

  it('says so when there is no active post, with status false and a 200', async () => {
    h = await startContent();
    const topic = await addTopic(h, 'T');
    await addPost(h, { topic, status: false });
    const reader = await h.user('user');
    const reply = await today(reader.token);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: false, template: null, message: 'No post for today yet' });
  });

  it('gives a reader who is not premium a free post, and a premium one only when no free post is active', async () => {
    h = await startContent();
    const sleep = await addTopic(h, 'Sleep');
    const focus = await addTopic(h, 'Focus');
    for (let i = 0; i < 6; i++) await addPost(h, { topic: sleep, type: 1, heading: `Premium ${i}` });
    const free = await addPost(h, { topic: focus, heading: 'Free in another topic' });
    // Their topic has only premium posts: the free post of another topic comes first.
    for (let day = 10; day <= 14; day++) {
      const reader = await h.user('user', { topics: [sleep] });
      h.setNow(`2026-03-${day}T09:00:00Z`);
      const reply = await today(reader.token);
      expect(reply.body.template).toMatchObject({ _id: free._id, type: 0 });
      expect(reply.body.template.locked).toBeUndefined();
    }
    // A premium reader draws from their own topic.
    const premium = await h.user('premium', { topics: [sleep] });
    const own = (await today(premium.token)).body.template;
    expect(own).toMatchObject({ type: 1 });
    expect(own.locked).toBeUndefined();
    // No free post left: the premium post is offered, locked (the web marks it as a teaser).
    await h.post(`/api/template/update/${free._id}`, { info: { status: false } }, h.admin.token);
    const late = await h.user('user', { topics: [sleep] });
    expect((await today(late.token)).body.template).toMatchObject({ type: 1, locked: true });
  });

  it("when a parallel call stored a reader's pick of the day first, its pick is answered; the batch's other readers get theirs", async () => {
    h = await startContent();
    const topic = await addTopic(h, 'T');
    const posts: Array<{ _id: string }> = [];
    for (let i = 0; i < 5; i++) posts.push(await addPost(h, { topic, heading: `P${i}` }));
    const first = await h.user('user');
    const second = await h.user('user');
    h.setNow('2026-03-10T09:00:00Z');
    const day = '2026-03-10';
    // Between this call's lookup and its insert, another call stores the first reader's pick of the day.
    const picks = h.store.collection<TodayPickDoc>('today_picks');
    const insertMany = picks.insertMany.bind(picks);
    let theirs = '';
    picks.insertMany = async (docs) => {
      const mine = docs.find((d) => d.userId === first.userId) as TodayPickDoc;
      theirs = posts.find((p) => p._id !== mine.templateId)?._id as string;
      await picks.insertOne({ ...mine, templateId: theirs });
      return insertMany(docs);
    };
    const res = await internalPost(
      h.url,
      '/internal/reminders/posts',
      {
        readers: [first, second].map((r) => ({ userId: r.userId, role: 'user', localDate: day })),
        recommendations: 0,
      },
      CONTENT_INTERNAL_TOKEN,
    );
    expect(res.status).toBe(200);
    expect(res.body.posts[res.body.picks[first.userId]].template._id).toBe(theirs);
    const stored = await picks.findOne({ _id: `${second.userId}:${day}` });
    expect(res.body.posts[res.body.picks[second.userId]].template._id).toBe(stored?.templateId);
    expect(await picks.countDocuments({})).toBe(2);
  });

  it('needs a signed-in reader', async () => {
    h = await startContent();
    const reply = await h.post('/api/logs/gettodaypost', {});
    expect(reply.status).toBe(401);
  });

  it('answers the same post on every call of the day, and a new one the next day', async () => {
    h = await startContent();
    const topic = await addTopic(h, 'T');
    for (let i = 0; i < 20; i++) await addPost(h, { topic, heading: `P${i}` });
    const reader = await h.user('user');
    h.setNow('2026-03-10T00:05:00Z');
    const first = await today(reader.token);
    expect(first.body).toMatchObject({ status: true, message: '' });
    expect(first.body.template).toMatchObject({
      _id: expect.any(String),
      heading: expect.stringMatching(/^P\d+$/),
      body: expect.any(String),
      totallikes: 0,
      totalcomments: 0,
      like: false,
    });
    for (const at of ['2026-03-10T08:00:00Z', '2026-03-10T15:30:00Z', '2026-03-10T23:59:59Z']) {
      h.setNow(at);
      expect((await today(reader.token)).body.template._id).toBe(first.body.template._id);
    }
    // A post added during the day changes nothing.
    await addPost(h, { topic, heading: 'Late' });
    expect((await today(reader.token)).body.template._id).toBe(first.body.template._id);
    h.setNow('2026-03-11T00:00:01Z');
    const next = await today(reader.token);
    expect(next.body.template._id).not.toBe(first.body.template._id);
  });

  it('rolls over at midnight in the reader’s time zone, not UTC', async () => {
    h = await startContent();
    const topic = await addTopic(h, 'T');
    for (let i = 0; i < 10; i++) await addPost(h, { topic });
    const kolkata = await h.user('user', { timeZone: 'Asia/Kolkata' });
    // 18:00 UTC on the 10th is 23:30 in Kolkata; 18:45 UTC is 00:15 on the 11th there.
    h.setNow('2026-03-10T18:00:00Z');
    const late = (await today(kolkata.token)).body.template._id;
    h.setNow('2026-03-10T18:29:00Z');
    expect((await today(kolkata.token)).body.template._id).toBe(late);
    h.setNow('2026-03-10T18:45:00Z');
    expect((await today(kolkata.token)).body.template._id).not.toBe(late);
    const picks = await h.store
      .collection('today_picks')
      .find({ userId: kolkata.userId }, { sort: { day: 1 } });
    expect(picks.map((p: any) => p.day)).toEqual(['2026-03-10', '2026-03-11']);
  });

  it('does not repeat the last 7 days’ picks while other posts exist', async () => {
    h = await startContent();
    const topic = await addTopic(h, 'T');
    for (let i = 0; i < 8; i++) await addPost(h, { topic });
    const reader = await h.user('user');
    const seen: string[] = [];
    for (let day = 1; day <= 8; day++) {
      h.setNow(`2026-04-${String(day).padStart(2, '0')}T10:00:00Z`);
      seen.push((await today(reader.token)).body.template._id);
    }
    // 8 posts over 8 days, none repeated within a week: every post exactly once.
    expect(new Set(seen).size).toBe(8);
    // On day 9 the pick of day 1 is out of the window again and is the only fresh one.
    h.setNow('2026-04-09T10:00:00Z');
    expect((await today(reader.token)).body.template._id).toBe(seen[0]);
  });

  it('repeats a post when there is nothing else', async () => {
    h = await startContent();
    const topic = await addTopic(h, 'T');
    const only = await addPost(h, { topic });
    const reader = await h.user('user');
    for (const day of ['10', '11', '12']) {
      h.setNow(`2026-05-${day}T10:00:00Z`);
      expect((await today(reader.token)).body.template._id).toBe(only._id);
    }
  });

  it('draws from the reader’s topics, and from every topic when they chose none', async () => {
    h = await startContent();
    const mine = await addTopic(h, 'Mine');
    const others = await addTopic(h, 'Others');
    const minePosts = new Set<string>();
    for (let i = 0; i < 3; i++) minePosts.add((await addPost(h, { topic: mine }))._id);
    for (let i = 0; i < 6; i++) await addPost(h, { topic: others });
    const reader = await h.user('user', { topics: [mine] });
    for (let day = 1; day <= 6; day++) {
      h.setNow(`2026-06-0${day}T10:00:00Z`);
      expect(minePosts.has((await today(reader.token)).body.template._id)).toBe(true);
    }
    const noTopics = await h.user('user');
    const picked = new Set<string>();
    for (let day = 1; day <= 9; day++) {
      h.setNow(`2026-07-0${day}T10:00:00Z`);
      picked.add((await today(noTopics.token)).body.template._id);
    }
    expect([...picked].some((id) => !minePosts.has(id))).toBe(true);
  });

  it('follows a change of the reader’s topics from the next day on', async () => {
    h = await startContent();
    const a = await addTopic(h, 'A');
    const b = await addTopic(h, 'B');
    await addPost(h, { topic: a });
    const inB = await addPost(h, { topic: b });
    const reader = await h.user('user', { topics: [a] });
    h.setNow('2026-08-01T10:00:00Z');
    await today(reader.token);
    await h.deliver(
      envelope(AuthEvents.ProfileUpdated.type, `user-${reader.userId}`, 2, {
        userId: reader.userId,
        topics: [b],
      }),
    );
    h.setNow('2026-08-02T10:00:00Z');
    expect((await today(reader.token)).body.template._id).toBe(inB._id);
  });

  it('replaces the day’s post when it was paused during the day', async () => {
    h = await startContent();
    const topic = await addTopic(h, 'T');
    for (let i = 0; i < 3; i++) await addPost(h, { topic });
    const reader = await h.user('user');
    const first = (await today(reader.token)).body.template._id;
    await h.post(`/api/template/update/${first}`, { info: { status: false } }, h.admin.token);
    const second = (await today(reader.token)).body.template._id;
    expect(second).not.toBe(first);
    expect((await today(reader.token)).body.template._id).toBe(second);
  });

  it('records a type 2 read only for a continue_reading arrival with a readable body', async () => {
    h = await startContent();
    const topic = await addTopic(h, 'T');
    const premiumTopic = await addTopic(h, 'P');
    const post = await addPost(h, { topic });
    await addPost(h, { topic: premiumTopic, type: 1 });
    const reader = await h.user('user', { topics: [topic] });
    const plain = await h.user('user', { topics: [premiumTopic] });
    const opened = async () => {
      const found: any[] = [];
      for await (const e of h.events.readAll()) if (e.type === ContentEvents.PostOpened.type) found.push(e);
      return found;
    };
    await today(reader.token);
    expect(await opened()).toHaveLength(0);
    await today(reader.token, { event: 'continue_reading' });
    const reads = await opened();
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatchObject({
      stream: expect.stringMatching(/^read-[0-9a-f]{24}$/),
      version: 1,
      actor: reader.userId,
      data: { userId: reader.userId, templateId: post._id, type: 2, openedAt: expect.any(String) },
    });
    // A locked premium post is not a read (one is offered only when no free post is active).
    await h.post(`/api/template/update/${post._id}`, { info: { status: false } }, h.admin.token);
    const locked = await today(plain.token, { event: 'continue_reading' });
    expect(locked.body.template.locked).toBe(true);
    expect(await opened()).toHaveLength(1);
  });
});
