import { EngagementEvents } from '@nudge/contracts';
import { closeServer, listen } from '@nudge/platform';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, INTERNAL_TOKEN, PUBLIC_URL, startEngagement, type TestUser } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function setUp(opts: Parameters<typeof startEngagement>[0] = {}) {
  const harness = await startEngagement(opts);
  h = harness;
  const admin = await harness.user({ role: 'admin' });
  const reader = await harness.user();
  const question = async (body: string, fields: Record<string, unknown> = {}) =>
    (await harness.post('/api/checkin/add', { token: admin.token, body, ...fields })).body.data as {
      _id: string;
    };
  return { h: harness, admin, reader, question };
}

/** The internal call the reminder workflow makes (not routed by the gateway). */
async function issue(harness: Harness, body: unknown, credential: string | null = INTERNAL_TOKEN) {
  const res = await fetch(`${harness.url}/internal/checkin/issue`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(credential ? { 'x-internal-token': credential } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const answer = (harness: Harness, qlid: string | undefined, a: string | undefined) => {
  const query = new URLSearchParams({
    ...(qlid !== undefined ? { qlid } : {}),
    ...(a !== undefined ? { a } : {}),
  });
  return harness.post(`/api/checkin?${query.toString()}`, undefined);
};

describe('issuing a check-in question (internal)', () => {
  it('needs the internal credential', async () => {
    const { h, reader, question } = await setUp();
    await question('Q');
    expect((await issue(h, { userId: reader.userId }, null)).status).toBe(403);
    expect((await issue(h, { userId: reader.userId }, 'x'.repeat(40))).status).toBe(403);
    expect((await issue(h, { userId: 'nope' })).status).toBe(400);
  });

  it('returns an unguessable qlid, its expiry and one link per answer; stores only the hash', async () => {
    const { h, reader, question } = await setUp();
    const q = await question('How rested are you?', { scale: 'reverse' });
    const res = await issue(h, { userId: reader.userId });
    expect(res.status).toBe(200);
    const { qlid } = res.body;
    expect(qlid).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(res.body).toMatchObject({
      status: true,
      expiresAt: new Date(h.clock.now.getTime() + 14 * 24 * 3600_000).toISOString(),
      question: { _id: q._id, body: 'How rested are you?', scale: 'reverse' },
    });
    expect(res.body.links).toEqual(
      [1, 2, 3, 4, 5].map((a) => ({ answer: a, url: `${PUBLIC_URL}/checkin?qlid=${qlid}&a=${a}` })),
    );
    const [sent] = await h.ownEvents(EngagementEvents.CheckinQuestionSent.type);
    expect(sent?.data).toMatchObject({ userId: reader.userId, questionId: q._id, scale: 'reverse' });
    expect(JSON.stringify(sent)).not.toContain(qlid);
    expect(JSON.stringify(await h.store.collection('checkins').find({}))).not.toContain(qlid);
    expect((await issue(h, { userId: reader.userId })).body.qlid).not.toBe(qlid);
  });

  it('picks active questions by order, rotating through them; a named question is sent as asked', async () => {
    const { h, reader, question } = await setUp();
    const second = await question('Second', { order: 2 });
    const first = await question('First', { order: 1 });
    await question('Paused', { order: 0, status: false });
    const picked: string[] = [];
    for (let i = 0; i < 4; i++) {
      h.clock.now = new Date(h.clock.now.getTime() + 1000);
      picked.push((await issue(h, { userId: reader.userId })).body.question._id);
    }
    expect(picked).toEqual([first._id, second._id, first._id, second._id]);
    expect((await issue(h, { userId: reader.userId, questionId: second._id })).body.question._id).toBe(
      second._id,
    );
    expect((await issue(h, { userId: reader.userId, questionId: 'eeeeeeeeeeeeeeeeeeeeeeee' })).status).toBe(
      404,
    );
  });

  it('answers 404 when there is no active question', async () => {
    const { h, reader, question } = await setUp();
    const paused = await question('Paused', { status: false });
    const none = await issue(h, { userId: reader.userId });
    expect(none.status).toBe(404);
    expect(none.body.message).toBe('There is no active check-in question to send');
    expect((await issue(h, { userId: reader.userId, questionId: paused._id })).status).toBe(409);
  });
});

describe('POST /api/checkin?qlid&a', () => {
  it('records the first answer and signs the reader in through auth; a second answer records nothing', async () => {
    const { h, reader, question } = await setUp();
    const q = await question('How calm are you?');
    const { qlid } = (await issue(h, { userId: reader.userId })).body;

    const first = await answer(h, qlid, '4');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      status: true,
      token: `session-for-${reader.userId}`,
      user: { _id: reader.userId, email: `${reader.userId}@x.test` },
    });
    // The link's sending time goes with it: auth refuses a link sent before the reader signed out.
    expect(h.fakeAuth.calls).toEqual([{ userId: reader.userId, linkIssuedAt: h.clock.now.toISOString() }]);
    const answered = await h.ownEvents(EngagementEvents.CheckinAnswered.type);
    expect(answered.map((e) => e.data)).toEqual([
      {
        checkinId: expect.any(String),
        userId: reader.userId,
        questionId: q._id,
        scale: 'normal',
        answer: 4,
        score: 75,
        sentAt: h.clock.now.toISOString(),
        answeredAt: h.clock.now.toISOString(),
      },
    ]);

    const second = await answer(h, qlid, '1');
    expect(second.status).toBe(200);
    expect(second.body).toEqual({
      status: true,
      token: `session-for-${reader.userId}`,
      user: { _id: reader.userId, email: `${reader.userId}@x.test` },
      alreadyAnswered: true,
    });
    expect(await h.ownEvents(EngagementEvents.CheckinAnswered.type)).toHaveLength(1);
  });

  it('refuses bad, unknown and expired links and out-of-range answers with clear 4xx', async () => {
    const { h, reader, question } = await setUp({ checkinLinkTtlDays: 3 });
    await question('Q');
    const { qlid } = (await issue(h, { userId: reader.userId })).body;

    const invalid = { status: false, message: 'This check-in link is not valid.' };
    for (const bad of [undefined, '', 'short', 'has spaces in it and more', 'x'.repeat(200)]) {
      const res = await answer(h, bad, '3');
      expect(res.status, String(bad)).toBe(400);
      expect(res.body).toEqual(invalid);
    }
    const unknown = await answer(h, 'A'.repeat(32), '3');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(invalid);

    for (const a of [undefined, '', '0', '6', '2.5', 'x', '-1', '10']) {
      const res = await answer(h, qlid, a);
      expect(res.status, String(a)).toBe(400);
      expect(res.body).toEqual({ status: false, message: 'The answer must be a whole number from 1 to 5.' });
    }
    const twice = await h.post(`/api/checkin?qlid=${qlid}&a=1&a=2`, undefined);
    expect(twice.status).toBe(400);

    h.clock.now = new Date(h.clock.now.getTime() + 3 * 24 * 3600_000);
    const expired = await answer(h, qlid, '3');
    expect(expired.status).toBe(410);
    expect(expired.body).toEqual({ status: false, message: 'This check-in link has expired.' });
    expect(await h.ownEvents(EngagementEvents.CheckinAnswered.type)).toHaveLength(0);
    expect(h.fakeAuth.calls).toHaveLength(0);
  });

  it('keeps the answer when auth cannot sign the reader in, and says so with a 503', async () => {
    const { h, reader, question } = await setUp();
    await question('Q');
    const { qlid } = (await issue(h, { userId: reader.userId })).body;
    h.fakeAuth.mode = 'error';
    const down = await answer(h, qlid, '5');
    expect(down.status).toBe(503);
    expect(down.body).toEqual({
      status: false,
      message: 'Sign-in is not available right now; your answer was recorded.',
    });
    expect(await h.ownEvents(EngagementEvents.CheckinAnswered.type)).toHaveLength(1);
    h.fakeAuth.mode = 'ok';
    expect((await answer(h, qlid, '5')).body.alreadyAnswered).toBe(true);
    h.fakeAuth.mode = 'unknown';
    expect((await answer(h, qlid, '5')).status).toBe(404);
  });

  it('a link sent before the reader signed out (auth answers 410) records nothing and signs no one in', async () => {
    const { h, reader, question } = await setUp();
    await question('Q');
    const { qlid } = (await issue(h, { userId: reader.userId })).body;
    h.fakeAuth.mode = 'ended';
    const ended = await answer(h, qlid, '4');
    expect(ended.status).toBe(410);
    expect(ended.body).toEqual({
      status: false,
      message: 'This check-in link no longer works because you were signed out. Please sign in again.',
    });
    expect(await h.ownEvents(EngagementEvents.CheckinAnswered.type)).toHaveLength(0);
  });

  it('answers 503 when auth does not answer at all', async () => {
    const closed = await listen(express(), 0);
    await closeServer(closed.server);
    const { h, reader, question } = await setUp({ authUrl: closed.url });
    await question('Q');
    const { qlid } = (await issue(h, { userId: reader.userId })).body;
    const res = await answer(h, qlid, '2');
    expect(res.status).toBe(503);
    expect(res.body.message).toBe('Sign-in is not available right now; your answer was recorded.');
    expect(await h.ownEvents(EngagementEvents.CheckinAnswered.type)).toHaveLength(1);
  });
});

describe('POST /api/checkin/progress', () => {
  async function answerWith(harness: Harness, reader: TestUser, questionId: string, a: number) {
    const { qlid } = (await issue(harness, { userId: reader.userId, questionId })).body;
    expect((await answer(harness, qlid, String(a))).status).toBe(200);
  }

  it('averages the answers’ scores, reverse-scale questions inverted', async () => {
    const { h, reader, question, admin } = await setUp();
    const empty = await h.post('/api/checkin/progress', { token: reader.token });
    expect(empty.body).toEqual({
      status: true,
      average: 0,
      answers: 0,
      message: 'Answer a check-in question to see your wellbeing score.',
    });

    const calm = await question('How calm are you?');
    const stress = await question('How stressed are you?', { scale: 'reverse' });
    await answerWith(h, reader, calm._id, 5); // 100
    await answerWith(h, reader, stress._id, 2); // (5-2)/4*100 = 75
    await answerWith(h, reader, calm._id, 2); // 25
    const res = await h.post('/api/checkin/progress', { token: reader.token });
    expect(res.body).toMatchObject({ status: true, average: 67, answers: 3 }); // 200/3 = 66.67
    expect(res.body.message).toBe('Your wellbeing score from 3 check-in answers.');

    // An answer keeps the scale its question had when it was sent.
    await h.post(`/api/checkin/update/${stress._id}`, { token: admin.token, scale: 'normal' });
    expect((await h.post('/api/checkin/progress', { token: reader.token })).body.average).toBe(67);

    const other = await h.user();
    expect((await h.post('/api/checkin/progress', { token: other.token })).body.average).toBe(0);
    expect((await h.post('/api/checkin/progress', {})).status).toBe(401);
  });

  it('gives 0 for the worst answers and 100 for the best on both scales', async () => {
    const { h, reader, question } = await setUp();
    const normal = await question('N');
    const reverse = await question('R', { scale: 'reverse' });
    await answerWith(h, reader, normal._id, 1);
    await answerWith(h, reader, reverse._id, 5);
    expect((await h.post('/api/checkin/progress', { token: reader.token })).body.average).toBe(0);
    await answerWith(h, reader, normal._id, 5);
    await answerWith(h, reader, reverse._id, 1);
    expect((await h.post('/api/checkin/progress', { token: reader.token })).body.average).toBe(50);
  });
});
