import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EngagementEvents } from './events-engagement';
import { checkEvent, EVENT_SCHEMAS, EventSchemaError, eventData, UPCASTERS, upcast } from './events-registry';

const like = { userId: 'u1', templateId: 't1', liked: true };

describe('event contracts registry', () => {
  it('holds every service’s event types, each name ending in its version', () => {
    expect(EVENT_SCHEMAS.size).toBeGreaterThan(30);
    for (const type of EVENT_SCHEMAS.keys()) expect(type).toMatch(/^[a-z]+\.[A-Za-z]+\.v\d+$/);
    expect(EVENT_SCHEMAS.get(EngagementEvents.LikeSet.type)).toBe(EngagementEvents.LikeSet.data);
  });

  it('checkEvent names the type and the field of invalid data, and refuses unknown types', () => {
    expect(checkEvent(EngagementEvents.LikeSet.type, like)).toEqual({
      type: EngagementEvents.LikeSet.type,
      data: like,
    });
    expect(() => checkEvent(EngagementEvents.LikeSet.type, { ...like, templateId: 7 })).toThrow(
      'event engagement.LikeSet.v1: field templateId: Invalid input: expected string, received number',
    );
    expect(() => checkEvent('engagement.LikeSet.v9', like)).toThrow(EventSchemaError);
  });

  it('eventData parses a handler’s event and refuses one of another type', () => {
    expect(
      eventData(EngagementEvents.LikeSet, { type: EngagementEvents.LikeSet.type, data: like }).liked,
    ).toBe(true);
    expect(() =>
      eventData(EngagementEvents.LikeSet, { type: EngagementEvents.CommentAdded.type, data: like }),
    ).toThrow(/expected engagement\.LikeSet\.v1/);
  });

  it('eventData of data the consumer has just checked returns it without a second parse', () => {
    const checked = checkEvent(EngagementEvents.LikeSet.type, { ...like });
    expect(eventData(EngagementEvents.LikeSet, checked)).toBe(checked.data);
    // Remembered for its own type only: the same object read as another type is still refused.
    expect(() =>
      eventData(EngagementEvents.CommentAdded, {
        type: EngagementEvents.CommentAdded.type,
        data: checked.data,
      }),
    ).toThrow(EventSchemaError);
  });

  describe('the version rule: an old version is upcast to the newest', () => {
    const upcasters = UPCASTERS as Map<string, { from: z.ZodType; to: string; up: (d: unknown) => unknown }>;
    const schemas = EVENT_SCHEMAS as Map<string, z.ZodType>;
    afterEach(() => {
      upcasters.delete('test.Liked.v1');
      upcasters.delete('test.Liked.v2');
      schemas.delete('test.Liked.v3');
    });

    it('runs v1 → v2 → v3 and parses each step', () => {
      upcasters.set('test.Liked.v1', {
        from: z.object({ user: z.string() }),
        to: 'test.Liked.v2',
        up: (d) => ({ userId: (d as { user: string }).user }),
      });
      upcasters.set('test.Liked.v2', {
        from: z.object({ userId: z.string() }),
        to: 'test.Liked.v3',
        up: (d) => ({ ...(d as object), liked: true }),
      });
      schemas.set('test.Liked.v3', z.object({ userId: z.string(), liked: z.boolean() }));
      expect(checkEvent('test.Liked.v1', { user: 'u1' })).toEqual({
        type: 'test.Liked.v3',
        data: { userId: 'u1', liked: true },
      });
      expect(upcast('test.Liked.v2', { userId: 'u2' })).toEqual({
        type: 'test.Liked.v3',
        data: { userId: 'u2', liked: true },
      });
      expect(() => checkEvent('test.Liked.v1', { name: 'u1' })).toThrow('event test.Liked.v1: field user:');
      // No upcaster: as stored, unparsed.
      expect(upcast(EngagementEvents.LikeSet.type, { any: 1 })).toEqual({
        type: EngagementEvents.LikeSet.type,
        data: { any: 1 },
      });
    });
  });
});
