import { internalPost } from '@nudge/platform/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, INTERNAL_TOKEN, startEngagement } from './harness';

// The suppression list: every delivery fact heard about an address, the check each send makes first, and the
// admin's view and lift.

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const facts = (harness: Harness, list: unknown[]) =>
  internalPost(harness.url, '/internal/suppressions/facts', { facts: list }, INTERNAL_TOKEN);
const check = async (harness: Harness, addresses: { channel: string; address: string }[]) =>
  (await internalPost(harness.url, '/internal/suppressions/check', { addresses }, INTERNAL_TOKEN)).body
    .suppressed as { channel: string; address: string }[];
const fact = (kind: string, address: string, extra: Record<string, unknown> = {}) => ({
  kind,
  channel: 'email',
  address,
  source: 'smtp',
  detail: `550 5.1.1 <${address}>: user unknown`,
  ...extra,
});

describe('suppression list', () => {
  it('suppresses on a hard bounce, a complaint, an invalid address and an opt-out; the check finds them', async () => {
    h = await startEngagement();
    const res = await facts(h, [
      fact('hard_bounce', 'Gone@Example.com'),
      fact('complaint', 'angry@example.com', { source: 'sendgrid' }),
      fact('invalid', 'not-an-address@example'),
      fact('unsubscribe', '+919876543210', { channel: 'whatsapp', source: 'twilio' }),
    ]);
    expect(res.body).toEqual({ status: true, recorded: 4, duplicates: 0 });
    const found = await check(h, [
      { channel: 'email', address: 'gone@example.com' },
      { channel: 'email', address: 'angry@example.com' },
      { channel: 'email', address: 'fine@example.com' },
      { channel: 'whatsapp', address: '+919876543210' },
      // The same number on the other channel is not suppressed.
      { channel: 'email', address: 'not-an-address@example' },
    ]);
    expect(found.map((a) => `${a.channel} ${a.address}`).sort()).toEqual([
      'email angry@example.com',
      'email gone@example.com',
      'email not-an-address@example',
      'whatsapp +919876543210',
    ]);
  });

  it('suppresses after N soft bounces within M days, not when they are spread wider', async () => {
    h = await startEngagement({ now: new Date('2026-03-01T08:00:00Z') });
    const soft = (address: string) => fact('soft_bounce', address, { detail: '452 4.2.2 mailbox full' });
    const day = 86_400_000;
    // Three within a week: suppressed at the third.
    for (let i = 0; i < 3; i++) {
      expect(await check(h, [{ channel: 'email', address: 'full@example.com' }])).toEqual([]);
      await facts(h, [soft('full@example.com')]);
      h.clock.now = new Date(h.clock.now.getTime() + 2 * day);
    }
    expect(await check(h, [{ channel: 'email', address: 'full@example.com' }])).toHaveLength(1);
    // Three, each four days apart: never three within seven days.
    for (let i = 0; i < 3; i++) {
      await facts(h, [soft('sometimes@example.com')]);
      h.clock.now = new Date(h.clock.now.getTime() + 4 * day);
    }
    expect(await check(h, [{ channel: 'email', address: 'sometimes@example.com' }])).toEqual([]);
    const admin = await h.user({ role: 'admin' });
    const list = await h.get('/api/admin/suppressions?address=full@example.com', admin.token);
    expect(list.body.suppressions[0]).toMatchObject({
      suppressed: true,
      reason: 'soft_bounces',
      detail: '452 4.2.2 mailbox full',
    });
  });

  it('records every one of many facts about one address arriving at once, none refused as a conflict', async () => {
    h = await startEngagement();
    const harness = h;
    const soft = (i: number) =>
      facts(harness, [fact('soft_bounce', 'busy@example.com', { detail: `452 4.2.2 mailbox full (${i})` })]);
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => soft(i)));
    expect(answers.map((a) => a.status)).toEqual(Array(16).fill(200));
    const admin = await h.user({ role: 'admin' });
    const list = await h.get('/api/admin/suppressions?address=busy@example.com', admin.token);
    expect(list.body.suppressions[0]).toMatchObject({
      suppressed: true,
      reason: 'soft_bounces',
      softBounces: 16,
    });
  });

  it('handles a provider event once, however often it is delivered', async () => {
    h = await startEngagement();
    const once = fact('soft_bounce', 'twice@example.com', { id: 'evt-1', source: 'ses' });
    expect((await facts(h, [once])).body).toMatchObject({ recorded: 1, duplicates: 0 });
    expect((await facts(h, [once, once])).body).toMatchObject({ recorded: 0, duplicates: 2 });
    const admin = await h.user({ role: 'admin' });
    const list = await h.get('/api/admin/suppressions?address=twice@example.com', admin.token);
    expect(list.body.suppressions[0].softBounces).toBe(1);
  });

  it('shows an admin why an address is suppressed, and a lift records who and when and mails it again', async () => {
    h = await startEngagement();
    await facts(h, [fact('hard_bounce', 'gone@example.com')]);
    const admin = await h.user({ role: 'admin', email: 'boss@nudge.test' });
    const reader = await h.user();
    expect((await h.get('/api/admin/suppressions', reader.token)).status).toBe(403);

    const list = await h.get('/api/admin/suppressions', admin.token);
    expect(list.body).toMatchObject({ status: true, total: 1 });
    expect(list.body.suppressions[0]).toEqual({
      address: 'gone@example.com',
      channel: 'email',
      suppressed: true,
      reason: 'hard_bounce',
      source: 'smtp',
      detail: '550 5.1.1 <gone@example.com>: user unknown',
      since: h.clock.now.toISOString(),
      softBounces: 0,
      lifted: null,
    });

    const lift = await h.post(
      '/api/admin/suppressions/lift',
      { channel: 'email', address: 'gone@example.com' },
      admin.token,
    );
    expect(lift.status).toBe(200);
    expect(lift.body.suppression).toMatchObject({
      suppressed: false,
      reason: null,
      lifted: { by: 'boss@nudge.test', at: h.clock.now.toISOString() },
    });
    expect(await check(h, [{ channel: 'email', address: 'gone@example.com' }])).toEqual([]);
    expect((await h.get('/api/admin/suppressions', admin.token)).body.total).toBe(0);

    // Lifting what is not suppressed is a clear 404 and changes nothing.
    const again = await h.post(
      '/api/admin/suppressions/lift',
      { channel: 'email', address: 'gone@example.com' },
      admin.token,
    );
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('gone@example.com is not suppressed on email');
    const bad = await h.post('/api/admin/suppressions/lift', { channel: 'fax', address: 'x' }, admin.token);
    expect(bad.status).toBe(400);
  });
});
