import { AuthEvents, type EventDef, eventData } from '@nudge/contracts';
import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../events/types';
import { createEmbeddedStore } from '../store';
import { createUserDirectory } from './user-directory';

const event = (version: number, def: EventDef, data: unknown): EventEnvelope => ({
  id: `e${version}`,
  type: def.type,
  stream: 'user-u1',
  version,
  occurredAt: '2026-11-01T10:00:00.000Z',
  actor: null,
  data: eventData(def, { type: def.type, data }),
  meta: {},
});

const stream: EventEnvelope[] = [
  event(1, AuthEvents.UserRegistered, {
    userId: 'u1',
    email: 'ann@example.com',
    source: 'self',
    role: 'user',
    type: 0,
    notiinfo: { time: '08:00', active: true },
    topics: [],
    timeZone: 'Europe/London',
  }),
  event(2, AuthEvents.UserSignedIn, { userId: 'u1', method: 'code' }),
  event(3, AuthEvents.ProfileUpdated, { userId: 'u1', firstname: 'Ann', lastname: 'Lee', topics: ['t1'] }),
  event(4, AuthEvents.RoleChanged, { userId: 'u1', from: 'user', to: 'premium', reason: 'billing' }),
  event(5, AuthEvents.ProfileUpdated, { userId: 'u1', timeZone: 'Asia/Kolkata' }),
];

async function deliver(events: EventEnvelope[]) {
  const directory = createUserDirectory(createEmbeddedStore({}));
  for (const e of events) await directory.handlers[e.type]?.(e);
  return directory;
}

describe('user directory (auth events kept by other services)', () => {
  it('folds a user’s events into names, role, topics and time zone', async () => {
    const directory = await deliver(stream);
    const user = await directory.byId('u1');
    expect(user).toMatchObject({
      email: 'ann@example.com',
      firstname: 'Ann',
      lastname: 'Lee',
      role: 'premium',
      topics: ['t1'],
      timeZone: 'Asia/Kolkata',
      version: 5,
    });
    expect(await directory.currentUser('u1')).toEqual({ role: 'premium', sessionsRevokedBefore: null });
    expect(await directory.currentUser('nobody')).toBeUndefined();
    expect((await directory.byEmail('ANN@example.com'))?._id).toBe('u1');
  });

  it('ends in the same state when the whole stream is delivered twice', async () => {
    const once = await deliver(stream);
    const twice = await deliver([...stream, ...stream]);
    expect(await twice.byId('u1')).toEqual(await once.byId('u1'));
  });

  it('ignores an older event redelivered after a newer one', async () => {
    const directory = await deliver([...stream, stream[3] as EventEnvelope, stream[2] as EventEnvelope]);
    expect((await directory.byId('u1'))?.timeZone).toBe('Asia/Kolkata');
    expect((await directory.byId('u1'))?.role).toBe('premium');
  });
});
