import { apiRoutes, ENGAGEMENT_SCHEMAS, EngagementEvents, EventLogRequest } from '@nudge/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

describe('engagement route schemas', () => {
  it('name only engagement routes of the table', () => {
    const engagementRoutes = apiRoutes
      .filter((r) => r.service === 'engagement')
      .map((r) => `${r.method} ${r.path}`);
    expect(Object.keys(ENGAGEMENT_SCHEMAS).sort()).toEqual([...engagementRoutes].sort());
  });

  it('can all be written as JSON Schema for the OpenAPI document', () => {
    for (const [key, schemas] of Object.entries(ENGAGEMENT_SCHEMAS)) {
      for (const part of ['params', 'query', 'body'] as const) {
        const schema = schemas[part];
        if (schema) expect(() => z.toJSONSchema(schema, { io: 'input' }), `${key} ${part}`).not.toThrow();
      }
      if (schemas.response)
        expect(() => z.toJSONSchema(schemas.response as z.ZodType, { io: 'output' }), key).not.toThrow();
    }
  });

  it('event intake: allowed types only, bounded sizes', () => {
    expect(EventLogRequest.safeParse({ eventType: 'page_visit', eventValue: '/' }).success).toBe(true);
    expect(EventLogRequest.safeParse({ eventType: 'signup', eventValue: '/' }).success).toBe(false);
    expect(EventLogRequest.parse({ eventType: 'page_visit' })).toMatchObject({
      eventValue: '',
      metadata: {},
    });
  });

  it('keeps the cross-service events as they were fixed', () => {
    expect(Object.keys(EngagementEvents)).toEqual(
      expect.arrayContaining(['LikeSet', 'CommentAdded', 'CommentEdited', 'CommentDeleted', 'WebEvent']),
    );
    expect(Object.keys(EngagementEvents.LikeSet.data.shape)).toEqual(['userId', 'templateId', 'liked']);
  });
});
