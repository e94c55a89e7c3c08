import { EngagementEvents } from '@nudge/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startEngagement, type TestUser } from './harness';

let h: Harness;
let admin: TestUser;
beforeEach(async () => {
  h = await startEngagement();
  admin = await h.user({ role: 'admin' });
});
afterEach(async () => {
  await h.close();
});

const addQuestion = (body: Record<string, unknown>) =>
  h.post('/api/checkin/add', { token: admin.token, ...body });

describe('check-in questions (admin.md §3, §5, §7)', () => {
  it('adds with the defaults: scale normal, status active, order 0; tags trimmed, blanks and duplicates dropped', async () => {
    const res = await addQuestion({
      body: '  How calm do you feel today?  ',
      tags: [' calm ', '', 'mood', 'calm', '  '],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: true,
      message: 'Check-In Question Added Successfully',
      data: {
        body: 'How calm do you feel today?',
        scale: 'normal',
        status: true,
        order: 0,
        tags: ['calm', 'mood'],
        createdAt: h.clock.now.toISOString(),
      },
    });
    expect(res.body.data._id).toMatch(/^[0-9a-f]{24}$/);
    const [added] = await h.ownEvents(EngagementEvents.CheckinQuestionAdded.type);
    expect(added?.stream).toBe(`checkinq-${res.body.data._id}`);
    expect(added?.data).toMatchObject({ questionId: res.body.data._id, tags: ['calm', 'mood'] });
  });

  it('refuses a question without a body, a bad scale or order, recording nothing', async () => {
    expect((await addQuestion({ body: '   ' })).body).toEqual({
      status: false,
      message: 'Please enter the question',
    });
    expect((await addQuestion({})).body).toEqual({ status: false, message: 'Please enter the question' });
    const scale = await addQuestion({ body: 'Q', scale: 'sideways' });
    expect(scale.status).toBe(400);
    expect(scale.body.message).toMatch(/Scale must be normal or reverse/);
    expect((await addQuestion({ body: 'Q', order: 'first' })).status).toBe(400);
    expect((await addQuestion({ body: 'Q', tags: 'a,b' })).status).toBe(400);
    expect(await h.ownEvents()).toHaveLength(0);
  });

  it('is for admins only', async () => {
    const reader = await h.user({ role: 'premium' });
    const created = (await addQuestion({ body: 'Q' })).body.data;
    const calls: [string, string][] = [
      ['POST', '/api/checkin/add'],
      ['GET', `/api/checkin/details/${created._id}`],
      ['POST', `/api/checkin/update/${created._id}`],
      ['GET', '/api/checkin/checkin?page=1&limit=10'],
      ['GET', '/api/checkin/allcheckin'],
    ];
    for (const [method, path] of calls) {
      const anonymous = method === 'GET' ? await h.get(path) : await h.post(path, { body: 'x' });
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      const asReader =
        method === 'GET' ? await h.get(path, reader.token) : await h.post(path, { body: 'x' }, reader.token);
      expect(asReader.status, `${method} ${path}`).toBe(403);
    }
  });

  it('shows, updates, pages and exports', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      h.clock.now = new Date(h.clock.now.getTime() + 1000);
      const res = await addQuestion({
        body: `Question ${i}`,
        order: i % 3,
        scale: i % 2 ? 'reverse' : 'normal',
      });
      ids.push(res.body.data._id);
    }
    const details = await h.get(`/api/checkin/details/${ids[4]}`, admin.token);
    expect(details.body).toMatchObject({
      status: true,
      data: { _id: ids[4], body: 'Question 4', order: 1, scale: 'normal', tags: [], status: true },
    });
    expect((await h.get('/api/checkin/details/dddddddddddddddddddddddd', admin.token)).body).toEqual({
      status: false,
      message: 'Question not found',
    });
    expect((await h.get('/api/checkin/details/nope', admin.token)).status).toBe(404);

    const updated = await h.post(`/api/checkin/update/${ids[4]}`, {
      token: admin.token,
      body: 'Question four',
      status: false,
      tags: ['x', 'x ', ''],
    });
    expect(updated.body).toMatchObject({
      status: true,
      message: 'Question updated successfully',
      data: { _id: ids[4], body: 'Question four', status: false, tags: ['x'], order: 1, scale: 'normal' },
    });
    // The admin's edit forms may wrap the fields in `info`.
    const wrapped = await h.post(`/api/checkin/update/${ids[4]}`, { token: admin.token, info: { order: 7 } });
    expect(wrapped.body.data).toMatchObject({ order: 7, body: 'Question four' });
    const unchanged = await h.post(`/api/checkin/update/${ids[4]}`, { token: admin.token, order: 7 });
    expect(unchanged.status).toBe(200);
    expect(await h.ownEvents(EngagementEvents.CheckinQuestionUpdated.type)).toHaveLength(2);
    expect((await h.post(`/api/checkin/update/${ids[4]}`, { token: admin.token, body: '' })).status).toBe(
      400,
    );

    const page1 = await h.get('/api/checkin/checkin?page=1&limit=10', admin.token);
    expect(page1.body.status).toBe(true);
    expect(page1.body.total).toBe(12);
    expect(page1.body.data).toHaveLength(10);
    const orders = page1.body.data.map((q: { order: number }) => q.order);
    expect(orders).toEqual([...orders].sort((a: number, b: number) => a - b));
    const page2 = await h.get('/api/checkin/checkin?page=2&limit=10', admin.token);
    expect(page2.body.data).toHaveLength(2);
    expect(page2.body.data.at(-1)._id).toBe(ids[4]); // order 7 sorts last

    const all = await h.get('/api/checkin/allcheckin', admin.token);
    expect(all.body.status).toBe(true);
    expect(all.body.data.map((q: { _id: string }) => q._id)).toEqual(
      [...page1.body.data, ...page2.body.data].map((q: { _id: string }) => q._id),
    );
    expect(Object.keys(all.body.data[0]).sort()).toEqual(
      ['_id', 'body', 'createdAt', 'order', 'scale', 'status', 'tags', 'updatedAt'].sort(),
    );
  });
});
