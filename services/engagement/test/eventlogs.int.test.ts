import { EngagementEvents, WEB_EVENT_TYPES } from '@nudge/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startEngagement } from './harness';

let h: Harness;
beforeEach(async () => {
  h = await startEngagement();
});
afterEach(async () => {
  await h.close();
});

const webEvents = async () => h.ownEvents(EngagementEvents.WebEvent.type);

describe('POST /api/eventlogs', () => {
  it('accepts every allowed type, anonymous or signed in, one WebEvent each', async () => {
    const reader = await h.user({ email: 'ria@example.com' });
    for (const eventType of WEB_EVENT_TYPES) {
      const res = await h.post('/api/eventlogs', {
        token: reader.token,
        eventType,
        eventValue: '/post/abc',
        metadata: { url: 'http://nudge.test/post/abc?uid=redacted' },
      });
      expect(res.status, eventType).toBe(200);
      expect(res.body).toEqual({ status: true });
    }
    const anonymous = await h.post('/api/eventlogs', { eventType: 'page_visit', eventValue: '/' });
    expect(anonymous.body).toEqual({ status: true });

    const events = await webEvents();
    expect(events).toHaveLength(WEB_EVENT_TYPES.length + 1);
    expect(events[0]?.stream).toMatch(/^webevent-[0-9a-f]{24}$/);
    expect(events[0]?.data).toEqual({
      userId: reader.userId,
      userEmail: 'ria@example.com',
      eventType: 'page_visit',
      eventValue: '/post/abc',
      metadata: { url: 'http://nudge.test/post/abc?uid=redacted' },
      receivedAt: h.clock.now.toISOString(),
    });
    expect(events.at(-1)?.data).toMatchObject({ userId: null, userEmail: null, metadata: {} });
    expect(new Set(events.map((e) => e.stream)).size).toBe(events.length);
  });

  it('ignores an invalid token instead of refusing the event', async () => {
    for (const token of ['garbage', 42, null, 'x'.repeat(5000)]) {
      const res = await h.post('/api/eventlogs', { token, eventType: 'web_like_click', eventValue: 't1' });
      expect(res.status, String(token)).toBe(200);
    }
    const events = await webEvents();
    expect(events).toHaveLength(4);
    expect(events.every((e) => (e.data as { userId: unknown }).userId === null)).toBe(true);
  });

  it('refuses what is outside the allow-list and the size bounds with a 400, recording nothing', async () => {
    const bad: [string, unknown][] = [
      ['unknown type', { eventType: 'purchase', eventValue: 'x' }],
      ['no type', { eventValue: 'x' }],
      ['type not text', { eventType: 1, eventValue: 'x' }],
      ['value too long', { eventType: 'page_visit', eventValue: 'v'.repeat(2001) }],
      ['value not text', { eventType: 'page_visit', eventValue: { a: 1 } }],
      ['metadata not an object', { eventType: 'page_visit', eventValue: 'x', metadata: 'm' }],
      ['metadata an array', { eventType: 'page_visit', eventValue: 'x', metadata: ['a'] }],
      ['metadata value not text', { eventType: 'page_visit', eventValue: 'x', metadata: { n: 1 } }],
      ['metadata value nested', { eventType: 'page_visit', eventValue: 'x', metadata: { n: { deep: 'x' } } }],
      [
        'metadata value too long',
        { eventType: 'page_visit', eventValue: 'x', metadata: { u: 'u'.repeat(2001) } },
      ],
      [
        'metadata key too long',
        { eventType: 'page_visit', eventValue: 'x', metadata: { ['k'.repeat(101)]: 'v' } },
      ],
      [
        'too many metadata entries',
        {
          eventType: 'page_visit',
          eventValue: 'x',
          metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])),
        },
      ],
      ['a list instead of an object', [{ eventType: 'page_visit' }]],
      ['not JSON', '{"eventType": '],
    ];
    for (const [label, body] of bad) {
      const res = await h.post('/api/eventlogs', body);
      expect(res.status, label).toBe(400);
      expect(res.body.status, label).toBe(false);
      expect(typeof res.body.message, label).toBe('string');
    }
    expect((await h.post('/api/eventlogs', { eventType: 'purchase' })).body.message).toMatch(
      /eventType must be one of page_visit, web_comment_click, web_like_click, email_like_click, email_continue_reading/,
    );
    expect(
      (await h.post('/api/eventlogs', { eventType: 'page_visit', eventValue: 'v'.repeat(2001) })).body
        .message,
    ).toBe('eventValue must be 2000 characters or less');
    expect(await webEvents()).toHaveLength(0);
  });

  it('accepts the limits exactly', async () => {
    const res = await h.post('/api/eventlogs', {
      eventType: 'page_visit',
      eventValue: 'v'.repeat(2000),
      metadata: Object.fromEntries(
        Array.from({ length: 20 }, (_, i) => [`${'k'.repeat(98)}${i}`.slice(-100), 'u'.repeat(2000)]),
      ),
    });
    expect(res.status).toBe(200);
    const [event] = await webEvents();
    expect(Object.keys((event?.data as { metadata: object } | undefined)?.metadata ?? {})).toHaveLength(20);
  });
});
