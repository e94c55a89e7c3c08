import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startEngagement } from './harness';

let h: Harness;
beforeEach(async () => {
  // 20:00 UTC on 10 March is 01:30 on 11 March in Asia/Kolkata (UTC+5:30).
  h = await startEngagement({ now: new Date('2026-03-10T20:00:00.000Z') });
});
afterEach(async () => {
  await h.close();
});

const READS: [string, 1 | 2][] = [
  ['2026-03-10T19:00:00.000Z', 1], // Kolkata 11 Mar 00:30 (today)   | UTC 10 Mar
  ['2026-03-10T18:00:00.000Z', 2], // Kolkata 10 Mar 23:30           | UTC 10 Mar
  ['2026-03-09T18:31:00.000Z', 1], // Kolkata 10 Mar 00:01           | UTC 9 Mar
  ['2026-03-09T10:00:00.000Z', 1], // Kolkata 9 Mar 15:30            | UTC 9 Mar
  ['2026-03-07T12:00:00.000Z', 2], // 7 Mar in both
];

/** Five different posts, one read each at the times above; returns the posts in that order. */
async function readAll(userId: string) {
  const posts: string[] = [];
  for (const [at, type] of READS) {
    const post = await h.addPost();
    await h.opened(userId, post, type, at);
    posts.push(post);
  }
  return posts;
}

describe('POST /api/history/getuserhistory', () => {
  it('counts days in the reader’s time zone', async () => {
    const reader = await h.user({ timeZone: 'Asia/Kolkata' });
    const [post] = await readAll(reader.userId);
    const res = await h.post('/api/history/getuserhistory', { token: reader.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: true,
      total: 5,
      timeZone: 'Asia/Kolkata',
      today: '2026-03-11',
      streak: 2,
    });
    expect(res.body.days).toEqual([
      { date: '2026-03-05', read: false, count: 0 },
      { date: '2026-03-06', read: false, count: 0 },
      { date: '2026-03-07', read: true, count: 1 },
      { date: '2026-03-08', read: false, count: 0 },
      { date: '2026-03-09', read: true, count: 1 },
      { date: '2026-03-10', read: true, count: 2 },
      { date: '2026-03-11', read: true, count: 1 },
    ]);
    expect(res.body.history).toHaveLength(5);
    expect(res.body.history[0]).toMatchObject({
      templateId: post,
      type: 1,
      status: true,
      createdAt: '2026-03-10T19:00:00.000Z',
    });
    expect(res.body.history.map((e: { createdAt: string }) => e.createdAt)).toEqual(READS.map(([at]) => at));
  });

  it('uses UTC days for a reader whose browser sent no time zone', async () => {
    const reader = await h.user();
    await readAll(reader.userId);
    const res = await h.post('/api/history/getuserhistory', { token: reader.token });
    expect(res.body).toMatchObject({ timeZone: 'UTC', today: '2026-03-10', streak: 1, total: 5 });
    expect(res.body.days.slice(-4)).toEqual([
      { date: '2026-03-07', read: true, count: 1 },
      { date: '2026-03-08', read: false, count: 0 },
      { date: '2026-03-09', read: true, count: 2 },
      { date: '2026-03-10', read: true, count: 2 },
    ]);
  });

  it('moves with the clock: the next day, yesterday’s read makes the streak', async () => {
    const reader = await h.user({ timeZone: 'Asia/Kolkata' });
    await readAll(reader.userId);
    h.clock.now = new Date('2026-03-11T20:00:00.000Z'); // Kolkata 12 Mar
    const res = await h.post('/api/history/getuserhistory', { token: reader.token });
    expect(res.body).toMatchObject({ today: '2026-03-12', streak: 3 });
    h.clock.now = new Date('2026-03-13T20:00:00.000Z'); // Kolkata 14 Mar: 12 and 13 empty
    expect((await h.post('/api/history/getuserhistory', { token: reader.token })).body.streak).toBe(0);
  });

  it('keeps each reader’s history apart, and needs a signed-in caller', async () => {
    const a = await h.user();
    const b = await h.user();
    await readAll(a.userId);
    const res = await h.post('/api/history/getuserhistory', { token: b.token });
    expect(res.body).toMatchObject({ history: [], total: 0, streak: 0 });
    expect(res.body.days.every((d: { read: boolean }) => !d.read)).toBe(true);
    expect((await h.post('/api/history/getuserhistory', {})).status).toBe(401);
  });

  it('keeps one entry per post per day and counts distinct posts: reopening or refreshing reads nothing more', async () => {
    const reader = await h.user({ timeZone: 'Asia/Kolkata' });
    const [first, second] = [await h.addPost(), await h.addPost()];
    // Kolkata 10 Mar: the first post opened three times, the second once; Kolkata 11 Mar: the first again.
    for (const at of ['2026-03-10T04:00:00.000Z', '2026-03-10T05:00:00.000Z', '2026-03-10T17:00:00.000Z'])
      await h.opened(reader.userId, first, 1, at);
    await h.opened(reader.userId, second, 1, '2026-03-10T06:00:00.000Z');
    await h.opened(reader.userId, first, 2, '2026-03-10T19:00:00.000Z');
    const res = await h.post('/api/history/getuserhistory', { token: reader.token });
    expect(res.body.total).toBe(2);
    expect(
      res.body.history.map((e: { templateId: string; createdAt: string }) => [e.templateId, e.createdAt]),
    ).toEqual([
      [first, '2026-03-10T19:00:00.000Z'],
      [second, '2026-03-10T06:00:00.000Z'],
      [first, '2026-03-10T04:00:00.000Z'],
    ]);
    expect(res.body.days.slice(-2)).toEqual([
      { date: '2026-03-10', read: true, count: 2 },
      { date: '2026-03-11', read: true, count: 1 },
    ]);
  });

  it('counts a read once however often its event is delivered', async () => {
    const reader = await h.user();
    const post = await h.addPost();
    const event = await h.opened(reader.userId, post, 1, '2026-03-10T10:00:00.000Z');
    await h.deliver('content', [event]); // the bus again
    await h.service.handlers[event.type]?.(event); // and the handler itself, past the consumer's dedupe
    await h.service.handlers[event.type]?.(event);
    const res = await h.post('/api/history/getuserhistory', { token: reader.token });
    expect(res.body.total).toBe(1);
    expect(res.body.history).toHaveLength(1);
  });
});
