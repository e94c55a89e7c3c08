import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BillingHarness, DAY, startBilling, subscribe } from './harness';

let h: BillingHarness;
beforeEach(async () => {
  h = await startBilling({ start: '2026-03-01T10:00:00.000Z' });
});
afterEach(async () => {
  await h.close();
});

describe('POST /api/payment/history', () => {
  it('lists the reader’s own payments, newest first, amounts in paise', async () => {
    const user = await h.user();
    const other = await h.user();
    const { subscriptionId, subscription, payment } = await subscribe(h, user);
    await subscribe(h, other);
    const firstEnd = new Date(subscription.current_end! * 1000);
    h.clock.set(firstEnd);
    const renewal = h.renewal(subscriptionId, user.userId, firstEnd, 2);
    await h.deliver(renewal);

    const reply = await h.post('/api/payment/history', { token: user.token });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      status: true,
      history: [
        {
          start: '2027-03-01T10:00:00.000Z',
          end: '2028-03-01T10:00:00.000Z',
          amount: 250000,
          kind: 'payment',
          paymentId: renewal.payload.payment!.entity.id,
          subscriptionId,
        },
        {
          start: '2026-03-01T10:00:00.000Z',
          end: '2027-03-01T10:00:00.000Z',
          amount: 250000,
          kind: 'payment',
          paymentId: payment.id,
          subscriptionId,
        },
      ],
    });
    expect((await h.post('/api/payment/history', {})).status).toBe(401);
  });

  it('is empty for a reader who never paid', async () => {
    const user = await h.user();
    await h.post('/api/payment/checkout', { token: user.token });
    expect((await h.post('/api/payment/history', { token: user.token })).body).toEqual({
      status: true,
      history: [],
    });
  });
});

describe('POST /api/payment/alldata (admin Transactions)', () => {
  it('pages 10 at a time, newest first, filters by e-mail, and leaves abandoned checkouts out', async () => {
    const admin = await h.user('admin');
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const user = await h.user('user', `buyer${String(i).padStart(2, '0')}@example.com`);
      ids.push((await subscribe(h, user)).subscriptionId);
      h.clock.advance(DAY);
    }
    const abandoned = await h.user('user', 'nopay@example.com');
    await h.post('/api/payment/checkout', { token: abandoned.token });

    const first = await h.post('/api/payment/alldata', { token: admin.token });
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(12);
    expect(first.body.data).toHaveLength(10);
    expect(first.body.data[0]).toMatchObject({
      email: 'buyer11@example.com',
      subscriptionId: ids[11],
      status: 'active',
      amount: 250000,
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      createdAt: expect.any(String),
      endAt: expect.any(String),
    });
    const second = await h.post('/api/payment/alldata?page=2&limit=10', { token: admin.token });
    expect(second.body.data.map((t: any) => t.email)).toEqual(['buyer01@example.com', 'buyer00@example.com']);

    const filtered = await h.post('/api/payment/alldata?email=BUYER0', { token: admin.token });
    expect(filtered.body.total).toBe(10);
    const exact = await h.post('/api/payment/alldata?email=buyer07@example.com', { token: admin.token });
    expect(exact.body.data.map((t: any) => t.subscriptionId)).toEqual([ids[7]]);
    const regexy = await h.post('/api/payment/alldata?email=.*', { token: admin.token });
    expect(regexy.body.total).toBe(0);

    const tooMany = await h.post('/api/payment/alldata?limit=1000', { token: admin.token });
    expect(tooMany.status).toBe(400);

    const oldest = await h.post('/api/payment/alldata?order=asc&limit=2', { token: admin.token });
    expect(oldest.body.data.map((t: any) => t.email)).toEqual(['buyer00@example.com', 'buyer01@example.com']);
    const day = first.body.data[0].createdAt.slice(0, 10);
    const oneDay = await h.post(`/api/payment/alldata?from=${day}&to=${day}`, { token: admin.token });
    expect(oneDay.body.data.map((t: any) => t.email)).toEqual(['buyer11@example.com']);
    const halted = await h.post('/api/payment/alldata?status=halted', { token: admin.token });
    expect(halted.body.total).toBe(0);
    const active = await h.post('/api/payment/alldata?status=active', { token: admin.token });
    expect(active.body.total).toBe(12);
    const backwards = await h.post('/api/payment/alldata?from=2026-02-01&to=2026-01-01', {
      token: admin.token,
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toContain('The start date must not be after the end date');
  });

  it('is for admins only', async () => {
    const user = await h.user();
    const premium = await h.user('premium');
    expect((await h.post('/api/payment/alldata', {})).status).toBe(401);
    expect((await h.post('/api/payment/alldata', { token: user.token })).status).toBe(403);
    expect((await h.post('/api/payment/alldata', { token: premium.token })).status).toBe(403);
  });
});
