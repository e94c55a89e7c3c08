import { z } from 'zod';

/**
 * Events of the engagement service, on topic nudge.engagement.events. Content keeps its like and comment
 * counters and each user's like state from these; reporting keeps the event log and check-in figures.
 * The engagement service adds its other events to this object.
 */
export const EngagementEvents = {
  /** The like state of (user, post) after a like/add that changed it. */
  LikeSet: {
    type: 'engagement.LikeSet.v1',
    data: z.object({ userId: z.string(), templateId: z.string(), liked: z.boolean() }),
  },
  CommentAdded: {
    type: 'engagement.CommentAdded.v1',
    data: z.object({
      commentId: z.string(),
      templateId: z.string(),
      userId: z.string(),
      message: z.string(),
    }),
  },
  CommentEdited: {
    type: 'engagement.CommentEdited.v1',
    data: z.object({
      commentId: z.string(),
      templateId: z.string(),
      userId: z.string(),
      message: z.string(),
    }),
  },
  CommentDeleted: {
    type: 'engagement.CommentDeleted.v1',
    data: z.object({ commentId: z.string(), templateId: z.string(), userId: z.string(), by: z.string() }),
  },
  /** A web analytics event for reporting's event log (POST /api/eventlogs). */
  WebEvent: {
    type: 'engagement.WebEvent.v1',
    data: z.object({
      userId: z.string().nullable(),
      userEmail: z.string().nullable(),
      eventType: z.string(),
      eventValue: z.string(),
      metadata: z.record(z.string(), z.string()),
      receivedAt: z.string(),
    }),
  },
} as const;

export type EngagementEventName = keyof typeof EngagementEvents;
export type EngagementEventData<K extends EngagementEventName> = z.infer<
  (typeof EngagementEvents)[K]['data']
>;
