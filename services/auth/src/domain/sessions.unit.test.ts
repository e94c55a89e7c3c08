import { AuthEvents } from '@nudge/contracts';
import { userRegisteredData } from '@nudge/platform/testing';
import { describe, expect, it } from 'vitest';
import { decideSessionsRevoked, evolve, foldUser, type StoredEvent } from './user';

const registered: StoredEvent = {
  type: AuthEvents.UserRegistered.type,
  version: 1,
  occurredAt: '2026-11-01T10:00:00.000Z',
  data: userRegisteredData('u1', 'ann@example.com'),
};

describe('sessions revoked', () => {
  it('a new user has no revocation; SessionsRevoked sets it to the event’s time', () => {
    const state = foldUser([registered]);
    expect(state?.sessionsRevokedBefore ?? null).toBeNull();
    const [event] = decideSessionsRevoked(
      state as NonNullable<typeof state>,
      new Date('2026-11-02T08:00:00.123Z'),
      'logout',
    );
    expect(event).toEqual({
      type: AuthEvents.SessionsRevoked.type,
      data: { userId: 'u1', before: '2026-11-02T08:00:00.123Z', reason: 'logout' },
    });
    const next = evolve(state, { ...(event as { type: string; data: unknown }), version: 2, occurredAt: '' });
    expect(next?.sessionsRevokedBefore).toBe('2026-11-02T08:00:00.123Z');
    expect(next?.version).toBe(2);
  });

  it('never moves the revocation time back (a clock behind the last one keeps the later time)', () => {
    const state = { ...(foldUser([registered]) as NonNullable<ReturnType<typeof foldUser>>) };
    state.sessionsRevokedBefore = '2026-11-02T08:00:00.500Z';
    const [event] = decideSessionsRevoked(state, new Date('2026-11-02T08:00:00.100Z'), 'admin');
    expect(event?.data).toEqual({ userId: 'u1', before: '2026-11-02T08:00:00.500Z', reason: 'admin' });
  });
});
